import XCTest
@testable import NudgeCore

final class CommandTemplateTests: XCTestCase {
    private func delivery(title: String, body: String = "Take 15 minutes to pray") -> Delivery {
        let notification = NudgeCore.Notification(
            id: "alarm.prayer:fajr:2026-11-21", kind: .prayer, source: "fajr",
            fireAt: Fixtures.instant("2026-11-21T04:30:00Z"), expiresAt: Fixtures.instant("2026-11-21T05:00:00Z"),
            title: title, body: body, priority: .critical, category: "PRAYER_ALARM", actions: [], sound: true,
            badge: true, recurrence: .once)
        return Delivery(notification: notification, deliveredAt: Fixtures.instant("2026-11-21T04:30:00Z"), badge: 2)
    }

    func testPlaceholdersAreReplacedInsideArguments() {
        let arguments = CommandTemplate.arguments(
            ["notify-send", "--app-name=nudge", "{title}", "{body}", "--hint=string:id:{id}", "{deepLink}", "{kind}"],
            for: delivery(title: "Morning Prayer Time"))
        XCTAssertEqual(arguments, ["notify-send", "--app-name=nudge", "Morning Prayer Time", "Take 15 minutes to pray",
                                   "--hint=string:id:alarm.prayer:fajr:2026-11-21", "nudge://alarm/fajr",
                                   "alarm.prayer"])
    }

    func testHostileTextStaysOneArgumentAndIsNotScannedAgain() {
        let hostile = "$(touch /tmp/pwned) `id` \"q\" {body}"
        let arguments = CommandTemplate.arguments(["notify-send", "{title}"], for: delivery(title: hostile))
        XCTAssertEqual(arguments, ["notify-send", hostile])
    }

    func testUnknownOrUnclosedBracesAreKept() {
        let arguments = CommandTemplate.arguments(["{nope} {title", "{}", "{{title}}"], for: delivery(title: "T"))
        XCTAssertEqual(arguments, ["{nope} {title", "{}", "{T}"])
    }

    func testEnvironmentCarriesTheRecordAndTheBadge() {
        XCTAssertEqual(CommandTemplate.environment(for: delivery(title: "Morning Prayer Time")), [
            "NUDGE_ID": "alarm.prayer:fajr:2026-11-21",
            "NUDGE_KIND": "alarm.prayer",
            "NUDGE_TITLE": "Morning Prayer Time",
            "NUDGE_BODY": "Take 15 minutes to pray",
            "NUDGE_DEEPLINK": "nudge://alarm/fajr",
            "NUDGE_PRIORITY": "critical",
            "NUDGE_BADGE": "2",
        ])
    }
}
