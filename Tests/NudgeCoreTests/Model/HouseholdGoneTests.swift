import XCTest
@testable import NudgeCore

/// Snoozes and timers of something gone are dropped; of something switched off they are held (docs/design.md,
/// "What a run plans").
final class HouseholdGoneTests: XCTestCase {
    private let now = Fixtures.instant("2026-11-21T08:00:00Z")

    private func record(_ kind: NotificationKind, source: String, event: String, body: String = "") -> NudgeCore.Notification {
        let original = NudgeCore.Notification(
            id: Notification.occurrenceID(kind, source, event), kind: kind, source: source, fireAt: now,
            expiresAt: now.addingTimeInterval(3600), title: "", body: body, priority: .critical, category: "",
            actions: [], sound: true, badge: true, recurrence: .once)
        return SnoozeRule.snooze(original, minutes: 10, now: now, existing: [])
    }

    private func washing(stage: LaundryCycle.Stage = .wash) -> Pet {
        Pet(id: "snowy", name: "Snowy", cycle: LaundryCycle(id: "c-1", stage: stage, startedAt: now))
    }

    func testALaundrySnoozeGoesWithItsStage() {
        let wash = record(.washComplete, source: "snowy", event: "c-1")
        XCTAssertFalse(Household(pets: [washing()]).isGone(wash))
        XCTAssertTrue(Household(pets: [washing(stage: .dry)]).isGone(wash), "moved to dry")
        XCTAssertTrue(Household(pets: [Pet(id: "snowy", name: "Snowy")]).isGone(wash), "stopped or folded")
        XCTAssertTrue(Household(pets: []).isGone(wash), "pet removed")
        let dry = record(.dryComplete, source: "snowy", event: "c-1")
        XCTAssertFalse(Household(pets: [washing(stage: .dry)]).isGone(dry))
    }

    func testAnAlarmsSnoozeAndTimerGoWithTheAlarmButAreHeldWhileItIsDisabled() {
        let snooze = record(.prayer, source: "fajr", event: "2026-11-21")
        var alarm = Fixtures.alarm("fajr", at: "05:30")
        XCTAssertFalse(Household(alarms: [alarm]).isGone(snooze))
        alarm.enabled = false
        XCTAssertFalse(Household(alarms: [alarm]).isGone(snooze), "disabled: held")
        XCTAssertFalse(Household(alarms: [alarm]).isSwitchedOn(snooze))
        XCTAssertTrue(Household(alarms: []).isGone(snooze), "removed")
        XCTAssertTrue(Household(alarms: []).isGone(record(.timerDone, source: "fajr", event: "2026-11-21")))
    }

    func testALeaveTimesSnoozeGoesWithItsTripRemovedOrDisabledAndAStreakReminderWithItsGames() {
        let leave = record(.leave, source: "office", event: "2026-11-23")
        var office = Trip(id: "office", destination: "Office", schedule: .once(arriveAt: now), travelMinutes: 20)
        XCTAssertFalse(Household(trips: [office]).isGone(leave))
        office.enabled = false
        XCTAssertTrue(Household(trips: [office]).isGone(leave))
        let reminder = record(.streakReminder, source: "streaks", event: "2026-11-21",
                              body: "Don't lose your 12-day Wordle streak!")
        let wordle = Game(id: "wordle", name: "Wordle", streak: 12)
        XCTAssertFalse(Household(streaks: StreakData(games: [wordle])).isGone(reminder))
        XCTAssertTrue(Household(streaks: StreakData(games: [])).isGone(reminder))
    }

    func testAnArrivalCheckGoesWithItsTripAndAMilestoneWithItsGame() {
        let arrival = record(.arrival, source: "office", event: "20261123T070000Z")
        let office = Trip(id: "office", destination: "Office", schedule: .once(arriveAt: now), travelMinutes: 20)
        XCTAssertFalse(Household(trips: [office]).isGone(arrival))
        XCTAssertTrue(Household(trips: []).isGone(arrival))
        var milestone = record(.achievement, source: "wordle-streak-30", event: "x")
        milestone.id = "streak.achievement:wordle-streak-30:snooze-1"
        let wordle = Game(id: "wordle", name: "Wordle")
        XCTAssertFalse(Household(streaks: StreakData(games: [wordle])).isGone(milestone))
        XCTAssertTrue(Household(streaks: StreakData(games: [])).isGone(milestone))
    }
}
