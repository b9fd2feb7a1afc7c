import XCTest
@testable import NudgeCore

/// Dated occurrences pruned as seen, missed or suppressed, kept with their instants (docs/promises.md, exactly once).
final class SettledDatesTests: XCTestCase {
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    func testOnlyDatedIdsAreKeptAndADateIsSettledWhateverItsInstantIsNow() {
        var dates = SettledDates()
        XCTAssertTrue(dates.insert(id: "alarm.prayer:isha:2026-03-21", fireAt: at("2026-03-21T18:45:00Z")))
        XCTAssertFalse(dates.insert(id: "laundry.washComplete:snowy:c-1", fireAt: at("2026-03-21T11:00:00Z")))
        XCTAssertFalse(dates.insert(id: "alarm.prayer:isha:2026-03-21:snooze-1", fireAt: at("2026-03-21T18:50:00Z")))
        XCTAssertTrue(dates.contains(id: "alarm.prayer:isha:2026-03-21"))
        XCTAssertFalse(dates.contains(id: "alarm.prayer:isha:2026-03-22"))
        XCTAssertFalse(dates.contains(id: "alarm.prayer:fajr:2026-03-21"))
        XCTAssertFalse(dates.contains(id: "laundry.washComplete:snowy:c-1"))
    }

    func testAClockSetBackForgetsTheDatesRecordedAfterItAndKeepsTheOthers() {
        var dates = SettledDates()
        dates.insert(id: "alarm.prayer:isha:2026-03-21", fireAt: at("2026-03-21T18:45:00Z"))
        dates.insert(id: "alarm.prayer:isha:2026-03-22", fireAt: at("2026-03-22T18:45:00Z"))
        dates.insert(id: "alarm.prayer:fajr:2026-03-23", fireAt: at("2026-03-23T04:30:00Z"))
        dates.forget(after: at("2026-03-21T20:00:00Z"))
        XCTAssertTrue(dates.contains(id: "alarm.prayer:isha:2026-03-21"), "recorded before the corrected clock")
        XCTAssertFalse(dates.contains(id: "alarm.prayer:isha:2026-03-22"), "due at its time again")
        XCTAssertFalse(dates.contains(id: "alarm.prayer:fajr:2026-03-23"))
        XCTAssertEqual(dates.textMembers.map(\.key), ["alarm.prayer:isha"], "a thread left empty is dropped")
    }

    func testAClockSetBackExactlyOntoARecordedInstantKeepsTheDate() {
        var dates = SettledDates()
        dates.insert(id: "alarm.prayer:isha:2026-03-21", fireAt: at("2026-03-21T18:45:00Z"))
        dates.forget(after: at("2026-03-21T18:45:00Z"))
        XCTAssertTrue(dates.contains(id: "alarm.prayer:isha:2026-03-21"), "not ahead of the corrected clock")
        dates.forget(after: at("2026-03-21T18:44:59Z"))
        XCTAssertFalse(dates.contains(id: "alarm.prayer:isha:2026-03-21"), "a second before: due again")
    }

    /// A missed date leaves the missed count when a clock set back before its instant forgets it (docs/promises.md);
    /// a seen or suppressed one has nothing to take off.
    func testAClockSetBackNamesTheForgottenDatesThatWereMissed() {
        var dates = SettledDates()
        dates.insert(id: "alarm.prayer:isha:2026-03-21", fireAt: at("2026-03-21T18:45:00Z"), missed: true)
        dates.insert(id: "alarm.prayer:isha:2026-03-22", fireAt: at("2026-03-22T18:45:00Z"), missed: true)
        dates.insert(id: "alarm.prayer:fajr:2026-03-23", fireAt: at("2026-03-23T04:30:00Z"))
        XCTAssertEqual(dates.forget(after: at("2026-03-21T20:00:00Z")), ["alarm.prayer:isha:2026-03-22"])
        XCTAssertEqual(dates.forget(after: at("2026-03-21T20:00:00Z")), [], "forgotten once")
        XCTAssertTrue(dates.contains(id: "alarm.prayer:isha:2026-03-21"))
    }

    /// After travel a date falls at another instant: one recorded ahead of the corrected clock stays when its
    /// instant in the run's zone has passed, and a date the run does not produce is judged by its recorded instant.
    func testAClockSetBackJudgesADateByItsInstantInTheRunsZone() {
        var dates = SettledDates()
        dates.insert(id: "alarm.prayer:fajr:2026-03-22", fireAt: at("2026-03-22T04:30:00Z"), missed: true)
        dates.insert(id: "alarm.prayer:gone:2026-03-22", fireAt: at("2026-03-22T04:30:00Z"), missed: true)
        let inTokyo = ["alarm.prayer:fajr:2026-03-22": at("2026-03-21T20:30:00Z")]
        XCTAssertEqual(dates.forget(after: at("2026-03-22T00:00:00Z")) { inTokyo[$0] },
                       ["alarm.prayer:gone:2026-03-22"])
        XCTAssertTrue(dates.contains(id: "alarm.prayer:fajr:2026-03-22"))
    }

    /// The instant is written as a time alone when it falls on its date in UTC at a whole minute, in full
    /// otherwise (Berlin's 00:30 is 23:30Z of the day before); `!` marks a missed date, `@` one seen or suppressed.
    func testTheTextFormIsShortWhereItCanBeAndReadsBack() {
        var dates = SettledDates()
        dates.insert(id: "alarm.prayer:isha:2026-03-21", fireAt: at("2026-03-21T18:45:00Z"), missed: true)
        dates.insert(id: "alarm.prayer:isha:2026-03-22", fireAt: at("2026-03-21T23:30:00Z"))
        dates.insert(id: "alarm.prayer:isha:2026-03-23", fireAt: at("2026-03-23T18:45:30Z"), missed: true)
        let members = dates.textMembers
        XCTAssertEqual(members.map(\.value),
                       ["2026-03-21!18:45 2026-03-22@2026-03-21T23:30:00Z 2026-03-23!2026-03-23T18:45:30Z"])
        var read = SettledDates()
        XCTAssertTrue(read.read(thread: members[0].key, text: members[0].value))
        XCTAssertEqual(read, dates)
    }

    func testTextThatIsNotOneIsRefused() {
        var dates = SettledDates()
        XCTAssertFalse(dates.read(thread: "alarm.prayer", text: "2026-03-21@18:45"))
        XCTAssertFalse(dates.read(thread: "alarm.prayer:isha", text: "2026-03-21"))
        XCTAssertFalse(dates.read(thread: "alarm.prayer:isha", text: "2026-03-21@25:99"))
        XCTAssertFalse(dates.read(thread: "alarm.prayer:isha", text: "2026-03-21@yesterday"))
        XCTAssertFalse(dates.read(thread: "alarm.prayer:isha", text: "2026-03-21#18:45"))
        XCTAssertFalse(dates.read(thread: "alarm.prayer:isha", text: "2026-03-21!@18:45"))
        XCTAssertFalse(dates.read(thread: "alarm.prayer:isha", text: ""))
        XCTAssertTrue(dates.isEmpty)
    }
}
