import XCTest
@testable import NudgeCore

/// What a record without buttons carries to the desktop (docs/desktop.md): the same `Notify` as one with buttons,
/// built by `NotifyRequest`, with an empty action list.
final class DesktopNotificationTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func request(_ notification: NudgeCore.Notification) -> NotifyRequest {
        NotifyRequest(notification, buttons: NotificationAction.buttons(for: notification, canPlay: false))
    }

    private func timerDone() -> NudgeCore.Notification {
        PrayerTimerRule.timer(for: Fixtures.alarm(), date: "2026-11-21", now: Fixtures.instant("2026-11-21T04:31:00Z"),
                              settings: Settings())
    }

    func testACriticalTimerWithoutButtonsIsCriticalNeverExpiresAndRings() {
        let body = request(timerDone()).body(capabilities: ["actions", "body", "body-markup"])
        XCTAssertEqual(body, [
            .string("nudge"), .uint32(0), .string("appointment-soon"), .string("Morning Prayer complete"),
            .string("Your 15 minutes are up."), .strings([]),
            .dictionary([("urgency", .byte(2)), ("category", .string("x-nudge.alarm")),
                         ("sound-name", .string("alarm-clock-elapsed"))]),
            .int32(0),
        ], "no buttons, not even the body's default, on a server that draws them")
    }

    func testALowNoteWithoutSoundSuppressesItTakesTheServersTimeoutAndEscapesMarkup() {
        var settings = Settings()
        settings.notifications.sound = false
        let achievement = StreakRule.achievement(
            Achievement(id: "a-1", title: "Centurion", description: "<b>100</b> & more",
                        unlockedAt: Fixtures.instant("2026-11-21T09:00:00Z")), settings: settings)
        XCTAssertEqual(request(achievement).buttons, [], "VIEW_ACHIEVEMENT opens nothing on this machine")
        XCTAssertEqual(request(achievement).body(capabilities: ["actions", "body-markup"]), [
            .string("nudge"), .uint32(0), .string("emblem-favorite"), .string("Achievement unlocked: Centurion"),
            .string("&lt;b&gt;100&lt;/b&gt; &amp; more"), .strings([]),
            .dictionary([("urgency", .byte(0)), ("category", .string("x-nudge.streak")),
                         ("suppress-sound", .boolean(true))]),
            .int32(-1),
        ])
        XCTAssertEqual(request(achievement).body(capabilities: ["body"])[4], .string("<b>100</b> & more"),
                       "plain for a server without markup")
    }

    func testUrgencyFollowsPriority() {
        XCTAssertEqual(DesktopNotification.urgency(.critical), 2)
        XCTAssertEqual(DesktopNotification.urgency(.high), 1)
        XCTAssertEqual(DesktopNotification.urgency(.medium), 1)
        XCTAssertEqual(DesktopNotification.urgency(.low), 0)
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

    func testATitleThatLooksLikeAnOptionStaysTextOnItsWayToTheWaiter() {
        var test = TestRule.notification(now: Fixtures.instant("2026-11-21T10:00:00Z"), settings: Settings())
        test.title = "--help"
        let sent = request(test)
        XCTAssertEqual(NotifyRequest(arguments: sent.arguments), sent)
        XCTAssertEqual(sent.body(capabilities: [])[3], .string("--help"))
    }
}
