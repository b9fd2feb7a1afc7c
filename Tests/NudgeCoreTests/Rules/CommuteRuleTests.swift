import XCTest
@testable import NudgeCore

/// Leave-time reminders: arrivals on the wall clock, the predicted fire time, texts and record fields.
final class CommuteRuleTests: XCTestCase {
    private let berlin = WallClock(zone: Fixtures.berlin)

    private func office(buffer: Int? = 10, observations: [TravelObservation] = [], enabled: Bool = true) -> Trip {
        Trip(id: "office", destination: "Office",
             schedule: .recurring(arriveBy: Fixtures.time("08:45"), weekdays: [.mon, .tue, .wed, .thu, .fri]),
             bufferMinutes: buffer, travelMinutes: 25, observations: observations, enabled: enabled)
    }

    private func dentist(arriveAt: String) -> Trip {
        Trip(id: "dentist", destination: "Dentist", schedule: .once(arriveAt: Fixtures.instant(arriveAt)),
             bufferMinutes: 10, travelMinutes: 25)
    }

    private func reminder(_ trip: Trip, arrival: String, date: String,
                          settings: Settings = Settings()) -> NudgeCore.Notification {
        CommuteRule.instance(of: trip, arrival: Fixtures.instant(arrival), arrivalDate: Fixtures.date(date),
                             settings: settings, clock: berlin)
    }

    func testRecurringArrivalsKeepLocalTimeAcrossSpringForward() {
        // Fri 2026-03-27 is CET (+01:00), Mon 2026-03-30 CEST (+02:00); the weekend is not listed.
        let arrivals = CommuteRule.arrivals(of: office(), from: Fixtures.date("2026-03-27"),
                                            through: Fixtures.date("2026-03-30"), clock: berlin)
        XCTAssertEqual(arrivals.map(\.date), [Fixtures.date("2026-03-27"), Fixtures.date("2026-03-30")])
        XCTAssertEqual(arrivals.map(\.arrival), [Fixtures.instant("2026-03-27T07:45:00Z"),
                                                 Fixtures.instant("2026-03-30T06:45:00Z")])
    }

    func testRemindersAcrossSpringForwardFireAtTheSameLocalTime() {
        let reminders = CommuteRule.notifications(for: office(), from: Fixtures.date("2026-03-27"),
                                                  through: Fixtures.date("2026-03-30"), settings: Settings(),
                                                  clock: berlin)
        XCTAssertEqual(reminders.map(\.id), ["commute.leave:office:2026-03-27", "commute.leave:office:2026-03-30"])
        XCTAssertEqual(reminders.map(\.fireAt), [Fixtures.instant("2026-03-27T07:10:00Z"),  // 08:10 CET
                                                 Fixtures.instant("2026-03-30T06:10:00Z")])  // 08:10 CEST
        XCTAssertEqual(reminders.map(\.expiresAt), [Fixtures.instant("2026-03-27T07:45:00Z"),
                                                    Fixtures.instant("2026-03-30T06:45:00Z")])
        XCTAssertEqual(reminders.map(\.body), ["Leave in 10 min to arrive at Office by 08:45",
                                               "Leave in 10 min to arrive at Office by 08:45"])
    }

    func testOneOffAfterSpringForwardIsShownInTheZonesNewOffset() {
        let summer = dentist(arriveAt: "2026-03-30T08:45:00+02:00")
        let arrivals = CommuteRule.arrivals(of: summer, from: Fixtures.date("2026-03-27"),
                                            through: Fixtures.date("2026-03-30"), clock: berlin)
        XCTAssertEqual(arrivals.map(\.date), [Fixtures.date("2026-03-30")])
        XCTAssertEqual(arrivals.map(\.arrival), [Fixtures.instant("2026-03-30T06:45:00Z")])
        let onTime = reminder(summer, arrival: "2026-03-30T06:45:00Z", date: "2026-03-30")
        XCTAssertEqual(onTime.fireAt, Fixtures.instant("2026-03-30T06:10:00Z"))
        XCTAssertEqual(onTime.body, "Leave in 10 min to arrive at Dentist by 08:45")

        // Written with last week's offset, the same digits are an hour later on Berlin's clock.
        let winterOffset = reminder(dentist(arriveAt: "2026-03-30T08:45:00+01:00"), arrival: "2026-03-30T07:45:00Z",
                                    date: "2026-03-30")
        XCTAssertEqual(winterOffset.body, "Leave in 10 min to arrive at Dentist by 09:45")
        XCTAssertEqual(winterOffset.fireAt, Fixtures.instant("2026-03-30T07:10:00Z"))
    }

    func testALeaveTimeBodyInADSTGapNamesTheResolvedLocalTime() {
        // 02:40 does not exist in Berlin on 29 March 2026 (02:00 → 03:00): the arrival is 03:00 (docs/promises.md).
        let night = Trip(id: "night", destination: "Station",
                         schedule: .recurring(arriveBy: Fixtures.time("02:40"), weekdays: [.sun]),
                         bufferMinutes: 0, travelMinutes: 20)
        let reminders = CommuteRule.notifications(for: night, from: Fixtures.date("2026-03-29"),
                                                  through: Fixtures.date("2026-03-29"), settings: Settings(),
                                                  clock: berlin)
        XCTAssertEqual(reminders.map(\.body), ["Leave now to arrive at Station by 03:00"])
        XCTAssertEqual(reminders.map(\.expiresAt), [Fixtures.instant("2026-03-29T01:00:00Z")])
    }

    func testOneOffArrivalIsListedWhateverTheRange() {
        let arrivals = CommuteRule.arrivals(of: dentist(arriveAt: "2026-11-24T14:30:00+01:00"),
                                            from: Fixtures.date("2026-01-01"), through: Fixtures.date("2026-01-07"),
                                            clock: berlin)
        XCTAssertEqual(arrivals.map(\.date), [Fixtures.date("2026-11-24")])
        XCTAssertEqual(arrivals.map(\.arrival), [Fixtures.instant("2026-11-24T13:30:00Z")])
    }

    func testZeroBufferSaysLeaveNowAndFiresAtTheLeaveTime() {
        let now = reminder(office(buffer: 0), arrival: "2026-11-24T07:45:00Z", date: "2026-11-24")
        XCTAssertEqual(now.body, "Leave now to arrive at Office by 08:45")
        XCTAssertEqual(now.fireAt, Fixtures.instant("2026-11-24T07:20:00Z"))
    }

    func testMissingBufferTakesTheSettingsDefault() {
        let byDefault = reminder(office(buffer: nil), arrival: "2026-11-24T07:45:00Z", date: "2026-11-24")
        XCTAssertEqual(byDefault.body, "Leave in 10 min to arrive at Office by 08:45")
        XCTAssertEqual(byDefault.fireAt, Fixtures.instant("2026-11-24T07:10:00Z"))

        var settings = Settings()
        settings.commute.defaultBufferMinutes = 15
        let custom = reminder(office(buffer: nil), arrival: "2026-11-24T07:45:00Z", date: "2026-11-24",
                              settings: settings)
        XCTAssertEqual(custom.body, "Leave in 15 min to arrive at Office by 08:45")
        XCTAssertEqual(custom.fireAt, Fixtures.instant("2026-11-24T07:05:00Z"))
    }

    func testPredictedTravelTimeMovesTheReminder() {
        let observed = office(observations: [
            TravelObservation(departedAt: Fixtures.instant("2026-11-23T07:20:00Z"), minutes: 31),
            TravelObservation(departedAt: Fixtures.instant("2026-11-20T07:20:00Z"), minutes: 33),
            TravelObservation(departedAt: Fixtures.instant("2026-11-19T07:20:00Z"), minutes: 29),
        ])
        let late = reminder(observed, arrival: "2026-11-24T07:45:00Z", date: "2026-11-24")
        XCTAssertEqual(late.fireAt, Fixtures.instant("2026-11-24T07:02:00Z"))  // 08:45 − 33 − 10 local
        XCTAssertEqual(late.body, "Leave in 10 min to arrive at Office by 08:45")
    }

    func testReminderRecordFieldsAndExpiryAtArrival() {
        var settings = Settings()
        settings.notifications.sound = false
        settings.notifications.badge = false
        let leave = reminder(office(), arrival: "2026-11-24T07:45:00Z", date: "2026-11-24", settings: settings)
        XCTAssertEqual(leave.id, "commute.leave:office:2026-11-24")
        XCTAssertEqual(leave.kind.rawValue, "commute.leave")
        XCTAssertEqual(leave.source, "office")
        XCTAssertEqual(leave.title, "Time to Leave")
        XCTAssertEqual(leave.priority, .high)
        XCTAssertEqual(leave.category, "LEAVE_TIME")
        XCTAssertEqual(leave.actions, ["LEAVING_NOW", "SNOOZE"])
        XCTAssertEqual(leave.expiresAt, Fixtures.instant("2026-11-24T07:45:00Z"))
        XCTAssertEqual(leave.recurrence, .once)
        XCTAssertEqual(leave.deepLink, "nudge://commute/office")
        XCTAssertFalse(leave.sound)
        XCTAssertFalse(leave.badge)
    }

    func testDisabledTripHasNoReminders() {
        let reminders = CommuteRule.notifications(for: office(enabled: false), from: Fixtures.date("2026-11-23"),
                                                  through: Fixtures.date("2026-11-29"), settings: Settings(),
                                                  clock: berlin)
        XCTAssertEqual(reminders, [])
    }
}
