import XCTest
@testable import NudgeCore

/// The personalized good-morning message: one text per weekday, local time, expiry at the end of the day.
final class PersonalizedRuleTests: XCTestCase {
    private func settings(enabled: Bool = true, firstName: String? = "Sam", time: String = "08:00") -> Settings {
        var settings = Settings()
        settings.personalized.enabled = enabled
        settings.personalized.firstName = firstName
        settings.personalized.time = Fixtures.time(time)
        return settings
    }

    private func body(on date: String) -> String? {
        PersonalizedRule.occurrence(on: Fixtures.date(date), settings: settings(),
                                    clock: WallClock(zone: Fixtures.berlin))?.body
    }

    func testEveryWeekdayHasItsOwnMessage() {
        XCTAssertEqual(body(on: "2026-11-23"),
                       "Good morning, Sam — This week starts strong. Let's plan your commute today.")
        XCTAssertEqual(body(on: "2026-11-24"), "Hey Sam, ready to tackle Tuesday? Check your commute times.")
        XCTAssertEqual(body(on: "2026-11-25"), "Midweek momentum, Sam! Your commute insights are ready.")
        XCTAssertEqual(body(on: "2026-11-26"), "Thursday vibes, Sam — Stay ahead with smart commute planning.")
        XCTAssertEqual(body(on: "2026-11-27"), "Friday energy, Sam! Plan your weekend commute now.")
        XCTAssertEqual(body(on: "2026-11-28"), "Weekend prep, Sam — Your commute schedule awaits.")
        XCTAssertEqual(body(on: "2026-11-29"), "Sunday reset, Sam. Get ready for a smooth week ahead.")
    }

    func testOccurrenceAtTheLocalTimeWithItsRecordFields() throws {
        let message = try XCTUnwrap(PersonalizedRule.occurrence(on: Fixtures.date("2026-11-23"), settings: settings(),
                                                                clock: WallClock(zone: Fixtures.berlin)))
        XCTAssertEqual(message.id, "daily.personalized:personalized:2026-11-23")
        XCTAssertEqual(message.kind.rawValue, "daily.personalized")
        XCTAssertEqual(message.source, "personalized")
        XCTAssertEqual(message.fireAt, Fixtures.instant("2026-11-23T07:00:00Z"))
        XCTAssertEqual(message.expiresAt, Fixtures.instant("2026-11-23T23:00:00Z"))  // midnight CET
        XCTAssertEqual(message.title, "Good morning")
        XCTAssertEqual(message.priority, .low)
        XCTAssertEqual(message.category, "DAILY")
        XCTAssertEqual(message.actions, [])
        XCTAssertEqual(message.recurrence, .daily(date: Fixtures.date("2026-11-23"), time: Fixtures.time("08:00")))
        XCTAssertEqual(message.deepLink, "nudge://daily/personalized")
        XCTAssertTrue(message.sound)
        XCTAssertTrue(message.badge)
    }

    func testExpiresAtTheEndOfTheLocalDayOnDSTDays() throws {
        let clock = WallClock(zone: Fixtures.berlin)
        // 2026-03-29 has 23 hours: 08:00 CEST, and the day ends at midnight CEST.
        let spring = try XCTUnwrap(PersonalizedRule.occurrence(on: Fixtures.date("2026-03-29"), settings: settings(),
                                                               clock: clock))
        XCTAssertEqual(spring.fireAt, Fixtures.instant("2026-03-29T06:00:00Z"))
        XCTAssertEqual(spring.expiresAt, Fixtures.instant("2026-03-29T22:00:00Z"))
        // 2026-10-25 has 25 hours: 08:00 CET, and the day ends at midnight CET.
        let autumn = try XCTUnwrap(PersonalizedRule.occurrence(on: Fixtures.date("2026-10-25"), settings: settings(),
                                                               clock: clock))
        XCTAssertEqual(autumn.fireAt, Fixtures.instant("2026-10-25T07:00:00Z"))
        XCTAssertEqual(autumn.expiresAt, Fixtures.instant("2026-10-25T23:00:00Z"))
    }

    func testTimeAndNameComeFromSettings() throws {
        let message = try XCTUnwrap(PersonalizedRule.occurrence(
            on: Fixtures.date("2026-11-24"), settings: settings(firstName: "  Ana ", time: "06:30"),
            clock: WallClock(zone: Fixtures.newYork)))
        XCTAssertEqual(message.fireAt, Fixtures.instant("2026-11-24T11:30:00Z"))  // 06:30 EST
        XCTAssertEqual(message.expiresAt, Fixtures.instant("2026-11-25T05:00:00Z"))
        XCTAssertEqual(message.body, "Hey Ana, ready to tackle Tuesday? Check your commute times.")
        XCTAssertEqual(message.recurrence, .daily(date: Fixtures.date("2026-11-24"), time: Fixtures.time("06:30")))
    }

    func testDisabledOrNamelessMessageHasNoOccurrence() {
        let clock = WallClock(zone: Fixtures.berlin)
        let date = Fixtures.date("2026-11-23")
        XCTAssertNil(PersonalizedRule.occurrence(on: date, settings: settings(enabled: false), clock: clock))
        XCTAssertNil(PersonalizedRule.occurrence(on: date, settings: settings(firstName: nil), clock: clock))
        XCTAssertNil(PersonalizedRule.occurrence(on: date, settings: settings(firstName: " "), clock: clock))
        XCTAssertNil(PersonalizedRule.occurrence(on: date, settings: Settings(), clock: clock))  // off by default
    }
}
