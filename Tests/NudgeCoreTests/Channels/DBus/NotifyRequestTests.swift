import XCTest
@testable import NudgeCore

/// What `Notify` carries for a record (docs/desktop.md), and how the request travels to the click waiter.
final class NotifyRequestTests: XCTestCase {
    private let clock = WallClock(zone: Fixtures.berlin)

    private func prayer() throws -> NudgeCore.Notification {
        try XCTUnwrap(AlarmRule.occurrence(of: Fixtures.alarm(), on: Fixtures.date("2026-11-21"),
                                           settings: Settings(), clock: clock))
    }

    private func request(_ notification: NudgeCore.Notification) -> NotifyRequest {
        NotifyRequest(notification, buttons: NotificationAction.buttons(for: notification, canPlay: false))
    }

    func testCriticalAlarmOnAServerWithButtonsAndMarkup() throws {
        let body = request(try prayer()).body(capabilities: ["actions", "body", "body-markup"])
        XCTAssertEqual(body, [
            .string("nudge"), .uint32(0), .string("appointment-soon"), .string("Morning Prayer Time"),
            .string("Take 15 minutes to pray"),
            .strings(["default", "Dismiss", "START_TIMER", "Start Timer", "SNOOZE", "Snooze"]),
            .dictionary([("urgency", .byte(2)), ("category", .string("x-nudge.alarm")),
                         ("sound-name", .string("alarm-clock-elapsed"))]),
            .int32(0),
        ])
    }

    func testAServerWithoutActionsGetsNoButtonsAndAServerWithoutMarkupThePlainBody() {
        var settings = Settings()
        settings.notifications.sound = false
        let achievement = StreakRule.achievement(
            Achievement(id: "a-1", title: "Centurion", description: "100 days & counting",
                        unlockedAt: Fixtures.instant("2026-11-21T09:00:00Z")), settings: settings)
        var withButtons = request(achievement)
        withButtons.buttons = [.init(action: "SNOOZE", label: "Snooze")]
        let body = withButtons.body(capabilities: ["body"])
        XCTAssertEqual(body[4], .string("100 days & counting"))
        XCTAssertEqual(body[5], .strings([]))
        XCTAssertEqual(body[6], .dictionary([("urgency", .byte(0)), ("category", .string("x-nudge.streak")),
                                             ("suppress-sound", .boolean(true))]))
        XCTAssertEqual(body[7], .int32(-1), "the server's own timeout")
        XCTAssertEqual(withButtons.body(capabilities: ["body-markup"])[4], .string("100 days &amp; counting"))
    }

    func testTheRequestTravelsAsArgumentsAndComesBackTheSame() throws {
        var original = request(try prayer())
        original.body = "Tom & Jerry = friends\nline two"
        XCTAssertEqual(original.arguments, [
            "app=nudge", "icon=appointment-soon", "summary=Morning Prayer Time", "body=Tom & Jerry = friends\nline two",
            "urgency=2", "category=x-nudge.alarm", "expire=0", "sound=alarm-clock-elapsed",
            "button=START_TIMER=Start Timer", "button=SNOOZE=Snooze",
        ])
        XCTAssertEqual(NotifyRequest(arguments: original.arguments), original)
        original.sound = nil
        XCTAssertEqual(NotifyRequest(arguments: original.arguments), original)
    }

    func testWordsThatAreNotARequestAreRefused() {
        XCTAssertNil(NotifyRequest(arguments: ["--urgency=critical"]))
        XCTAssertNil(NotifyRequest(arguments: ["urgency=3"]))
        XCTAssertNil(NotifyRequest(arguments: ["button=SNOOZE"]))
        XCTAssertNil(NotifyRequest(arguments: ["expire=soon"]))
    }
}
