import XCTest
@testable import NudgeCore

/// The notify-send arguments that carry a record without buttons to the desktop (SPEC §7.1).
final class DesktopNotificationTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func prayer(sound: Bool = true) throws -> NudgeCore.Notification {
        var settings = Settings()
        settings.notifications.sound = sound
        return try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                                  settings: settings, clock: clock))
    }

    func testCriticalIsCriticalNeverExpiresAndRings() throws {
        XCTAssertEqual(DesktopNotification.arguments(try prayer()), [
            "--app-name=nudge", "--urgency=critical", "--expire-time=0", "--icon=appointment-soon",
            "--category=x-nudge.alarm", "--hint=string:sound-name:alarm-clock-elapsed",
            "--", "Morning Prayer Time", "Take 15 minutes to pray",
        ])
    }

    func testLowWithoutSoundSuppressesItAndTakesTheServersTimeout() {
        var settings = Settings()
        settings.notifications.sound = false
        let achievement = StreakRule.achievement(
            Achievement(id: "a-1", title: "Centurion", description: "<b>100</b> & more",
                        unlockedAt: Fixtures.instant("2026-11-21T09:00:00Z")), settings: settings)
        let arguments = DesktopNotification.arguments(achievement)
        XCTAssertEqual(arguments, [
            "--app-name=nudge", "--urgency=low", "--icon=emblem-favorite", "--category=x-nudge.streak",
            "--hint=boolean:suppress-sound:true", "--", "Achievement unlocked: Centurion",
            "&lt;b&gt;100&lt;/b&gt; &amp; more",
        ])
    }

    func testUrgencyFollowsPriority() {
        XCTAssertEqual(DesktopNotification.urgency(.critical), "critical")
        XCTAssertEqual(DesktopNotification.urgency(.high), "normal")
        XCTAssertEqual(DesktopNotification.urgency(.medium), "normal")
        XCTAssertEqual(DesktopNotification.urgency(.low), "low")
    }

    func testTimersRingLikeAnAlarmClockAndTheRestLikeAMessage() {
        for kind in [NotificationKind.prayer, .timerDone, .washComplete, .dryComplete] {
            XCTAssertEqual(DesktopNotification.soundName(kind), "alarm-clock-elapsed", kind.rawValue)
        }
        for kind in [NotificationKind.foldReminder, .leave, .personalized, .streakReminder, .test] {
            XCTAssertEqual(DesktopNotification.soundName(kind), "message-new-instant", kind.rawValue)
        }
    }

    func testEveryKindFamilyHasAnIconOfItsOwn() {
        let families = Dictionary(grouping: NotificationKind.allCases, by: \.family)
        let icons = Set(families.values.map { DesktopNotification.icon($0[0]) })
        XCTAssertEqual(icons.count, families.count)
    }

    func testATitleThatLooksLikeAnOptionStaysText() {
        var test = TestRule.notification(now: Fixtures.instant("2026-11-21T10:00:00Z"), settings: Settings())
        test.title = "--help"
        let arguments = DesktopNotification.arguments(test)
        XCTAssertEqual(Array(arguments.suffix(3)), ["--", "--help", test.body])
    }
}
