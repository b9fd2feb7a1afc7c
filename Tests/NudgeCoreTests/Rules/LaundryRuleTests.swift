import XCTest
@testable import NudgeCore

final class LaundryRuleTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func pet(stage: LaundryCycle.Stage?, startedAt: String = "2026-11-21T07:30:00Z") -> Pet {
        Pet(id: "snowy", name: "Snowy", washMinutes: 45, dryMinutes: 60,
            lastCompletedAt: Fixtures.instant("2026-11-14T18:00:00Z"),
            cycle: stage.map { LaundryCycle(id: "c-1042", stage: $0, startedAt: Fixtures.instant(startedAt)) })
    }

    func testWashStageYieldsWashCompleteAtStartPlusWashMinutes() {
        let result = LaundryRule.notifications(for: pet(stage: .wash), settings: Settings(), clock: clock)
        XCTAssertEqual(result.count, 1)
        let wash = result[0]
        XCTAssertEqual(wash.id, "laundry.washComplete:snowy:c-1042")
        XCTAssertEqual(wash.kind, .washComplete)
        XCTAssertEqual(wash.fireAt, Fixtures.instant("2026-11-21T08:15:00Z"))
        XCTAssertEqual(wash.expiresAt, Fixtures.instant("2026-11-21T14:15:00Z"))
        XCTAssertEqual(wash.title, "Wash Complete!")
        XCTAssertEqual(wash.body, "Snowy is ready for the dryer!")
        XCTAssertEqual(wash.priority, .critical)
        XCTAssertEqual(wash.category, "TIMER_COMPLETE")
        XCTAssertEqual(wash.actions, ["COMPLETE_ACTION", "SNOOZE_ACTION"])
        XCTAssertEqual(wash.deepLink, "nudge://laundry/snowy")
        XCTAssertEqual(wash.recurrence, .once)
    }

    func testDryStageYieldsDryCompleteThenFoldReminder() {
        let result = LaundryRule.notifications(for: pet(stage: .dry), settings: Settings(), clock: clock)
        XCTAssertEqual(result.map(\.kind), [.dryComplete, .foldReminder])
        XCTAssertEqual(result[0].fireAt, Fixtures.instant("2026-11-21T08:30:00Z"))
        XCTAssertEqual(result[0].title, "Dry Complete!")
        XCTAssertEqual(result[0].body, "Time to fold Snowy's laundry!")
        XCTAssertEqual(result[1].id, "laundry.foldReminder:snowy:c-1042")
        XCTAssertEqual(result[1].fireAt, Fixtures.instant("2026-11-21T09:00:00Z"))
        XCTAssertEqual(result[1].expiresAt, Fixtures.instant("2026-11-22T09:00:00Z"))
        XCTAssertEqual(result[1].title, "Still waiting to be folded")
        XCTAssertEqual(result[1].body, "Snowy's laundry is done and waiting for you.")
        XCTAssertEqual(result[1].priority, .medium)
    }

    func testFoldReminderFollowsSettingsMinutes() {
        var settings = Settings()
        settings.laundry.foldReminderMinutes = 90
        let fold = LaundryRule.notifications(for: pet(stage: .dry), settings: settings, clock: clock)[1]
        XCTAssertEqual(fold.fireAt, Fixtures.instant("2026-11-21T10:00:00Z"))
    }

    func testAlmostDoneIsOffByDefaultAndWarnsBeforeCompletionWhenSet() {
        XCTAssertFalse(LaundryRule.notifications(for: pet(stage: .wash), settings: Settings(), clock: clock)
            .contains { $0.kind == .almostDone })
        var settings = Settings()
        settings.laundry.warnBeforeMinutes = 5
        let result = LaundryRule.notifications(for: pet(stage: .wash), settings: settings, clock: clock)
        let warning = result.first { $0.kind == .almostDone }
        XCTAssertEqual(warning?.id, "laundry.almostDone:snowy:c-1042:wash")
        XCTAssertEqual(warning?.fireAt, Fixtures.instant("2026-11-21T08:10:00Z"))
        XCTAssertEqual(warning?.expiresAt, Fixtures.instant("2026-11-21T08:15:00Z"))
        XCTAssertEqual(warning?.title, "Almost done")
        XCTAssertEqual(warning?.body, "Snowy's wash finishes in 5 min.")
        XCTAssertEqual(warning?.priority, .high)
    }

    func testNoCycleGivesHealthWarningAtTenLocalOnTheDayItDeclines() {
        // 2026-11-14T18:00Z + 7 days = 2026-11-21T18:00Z, later than 10:00 Berlin that day: the moment itself.
        let result = LaundryRule.notifications(for: pet(stage: nil), settings: Settings(), clock: clock)
        XCTAssertEqual(result.count, 1)
        XCTAssertEqual(result[0].kind, .laundryHealth)
        XCTAssertEqual(result[0].id, "laundry.health:snowy:2026-11-14T18:00:00Z")
        XCTAssertEqual(result[0].fireAt, Fixtures.instant("2026-11-21T18:00:00Z"))
        XCTAssertEqual(result[0].title, "Snowy needs laundry")
        XCTAssertEqual(result[0].body, "Health is declining")
        XCTAssertEqual(result[0].category, "HEALTH_WARNING")
        XCTAssertEqual(result[0].actions, [])
        XCTAssertEqual(result[0].priority, .medium)
    }

    func testHealthWarningWaitsForTenOClockWhenItDeclinesAtNight() {
        var night = pet(stage: nil)
        night.lastCompletedAt = Fixtures.instant("2026-11-14T02:00:00Z")  // 03:00 Berlin
        let warning = LaundryRule.notifications(for: night, settings: Settings(), clock: clock)[0]
        XCTAssertEqual(warning.fireAt, Fixtures.instant("2026-11-21T09:00:00Z"))  // 10:00 Berlin
    }

    func testHealthWarningCountsTwentyFourHourDaysFromSettings() {
        var settings = Settings()
        settings.laundry.healthWarnAfterDays = 2
        let warning = LaundryRule.notifications(for: pet(stage: nil), settings: settings, clock: clock)[0]
        XCTAssertEqual(warning.fireAt, Fixtures.instant("2026-11-16T18:00:00Z"))
    }

    func testNoCycleAndNeverCompletedGivesNothing() {
        let fresh = Pet(id: "new", name: "New")
        XCTAssertEqual(LaundryRule.notifications(for: fresh, settings: Settings(), clock: clock), [])
    }

    func testTimersAreAbsoluteInstantsWhateverTheZone() {
        let berlin = LaundryRule.notifications(for: pet(stage: .wash), settings: Settings(), clock: clock)
        let tokyo = LaundryRule.notifications(for: pet(stage: .wash), settings: Settings(),
                                              clock: WallClock(zone: Fixtures.tokyo))
        XCTAssertEqual(berlin.map(\.fireAt), tokyo.map(\.fireAt))
    }
}
