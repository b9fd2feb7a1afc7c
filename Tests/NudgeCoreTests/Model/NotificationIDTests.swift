import XCTest
@testable import NudgeCore

/// A notification's id kept as its parts (`Notification.Identity`) reads, compares and changes like one kept as text.
final class NotificationIDTests: XCTestCase {
    private func record(_ date: LocalDate, source: String = "fajr") -> NudgeCore.Notification {
        NudgeCore.Notification(occurrenceOn: date, kind: .prayer, source: source, fireAt: Date(timeIntervalSince1970: 0),
                               expiresAt: Date(timeIntervalSince1970: 60), title: "T", body: "B", priority: .critical,
                               category: "C", actions: ["SNOOZE"], sound: true, badge: false,
                               recurrence: .daily(date: date, time: Fixtures.time("05:30")))
    }

    private func withTextID(_ notification: NudgeCore.Notification) -> NudgeCore.Notification {
        NudgeCore.Notification(id: notification.id, kind: notification.kind, source: notification.source,
                               fireAt: notification.fireAt, expiresAt: notification.expiresAt,
                               title: notification.title, body: notification.body, priority: notification.priority,
                               category: notification.category, actions: notification.actions,
                               sound: notification.sound, badge: notification.badge,
                               recurrence: notification.recurrence)
    }

    func testADatedIdReadsAsKindSourceAndDate() throws {
        for date in [Fixtures.date("2026-11-21"), Fixtures.date("0042-01-05"),
                     try XCTUnwrap(LocalDate(year: 10_000, month: 2, day: 3)),
                     try XCTUnwrap(LocalDate(year: -1, month: 12, day: 31))] {
            XCTAssertEqual(record(date).id, NudgeCore.Notification.occurrenceID(.prayer, "fajr", date.description))
        }
        XCTAssertEqual(record(Fixtures.date("2026-11-21"), source: "Zoë").id, "alarm.prayer:Zoë:2026-11-21")
    }

    func testRecordsAreEqualWhateverFormTheirIdIsKeptIn() {
        let dated = record(Fixtures.date("2026-11-21"))
        XCTAssertEqual(dated, withTextID(dated))
        XCTAssertEqual(withTextID(dated), dated)
        XCTAssertNotEqual(dated, record(Fixtures.date("2026-11-22")))
        XCTAssertNotEqual(dated, withTextID(record(Fixtures.date("2026-11-22"))))
        XCTAssertNotEqual(dated, record(Fixtures.date("2026-11-21"), source: "asr"))
    }

    func testSettingTheIdKeepsKindAndSource() {
        var snoozed = record(Fixtures.date("2026-11-21"))
        snoozed.id = "alarm.prayer:fajr:2026-11-21:snooze-1"
        XCTAssertEqual(snoozed.id, "alarm.prayer:fajr:2026-11-21:snooze-1")
        XCTAssertEqual(snoozed.kind, .prayer)
        XCTAssertEqual(snoozed.source, "fajr")
        XCTAssertNotEqual(snoozed, record(Fixtures.date("2026-11-21")))
    }

    /// Two dated ids of one kind whose sort prefixes differ order as their prefixes do; a source that is not ASCII,
    /// or an id kept as text, has none (0).
    func testSortPrefixesOrderAsTheIdsDo() {
        let sources = ["", "a", "a-b", "a0", "aa", "abcdefg", "abcdefgh", "abcdefghi", "abcdefgx", "b", "A", "a:"]
        let date = Fixtures.date("2026-11-21")
        let identity = { (source: String) in
            NudgeCore.Notification.Identity(kind: .prayer, source: source, stored: .dated(date))
        }
        for left in sources {
            for right in sources {
                let (leftPrefix, rightPrefix) = (identity(left).sortPrefix, identity(right).sortPrefix)
                guard leftPrefix != 0, rightPrefix != 0, leftPrefix != rightPrefix else { continue }
                XCTAssertEqual(leftPrefix < rightPrefix, identity(left).id < identity(right).id, "\(left) \(right)")
            }
        }
        XCTAssertEqual(identity("Zoë").sortPrefix, 0)
        XCTAssertEqual(NudgeCore.Notification.Identity(kind: .prayer, source: "a", stored: .text("a")).sortPrefix, 0)
        XCTAssertEqual(identity("abcdefgh").sortPrefix, identity("abcdefghi").sortPrefix)
        XCTAssertEqual(identity("ab").sortPrefix, 0x6162_3A00_0000_0000)
    }

    /// The filter's key of a dated id made from its parts is that of its text, whatever the source and the year.
    func testFilterKeyOfThePartsIsThatOfTheText() throws {
        typealias Identity = NudgeCore.Notification.Identity
        let dates = [Fixtures.date("2026-11-21"), Fixtures.date("0042-01-05"),
                     try XCTUnwrap(LocalDate(year: 10_000, month: 2, day: 3)),
                     try XCTUnwrap(LocalDate(year: -1, month: 12, day: 31))]
        for source in ["fajr", "a-b", "", "Zoë", "a:b", "sixteen-bytes-id", "x:"] {
            for date in dates {
                let identity = Identity(kind: .prayer, source: source, stored: .dated(date))
                XCTAssertEqual(identity.filterKey(source: Identity.SourceKey(source)),
                               Identity.filterKey(of: identity.id), "\(identity.id)")
            }
        }
        let text = Identity(kind: .washComplete, source: "snowy", stored: .text("laundry.washComplete:snowy:c1"))
        XCTAssertEqual(text.filterKey(source: Identity.SourceKey("snowy")), Identity.filterKey(of: text.id))
    }
}
