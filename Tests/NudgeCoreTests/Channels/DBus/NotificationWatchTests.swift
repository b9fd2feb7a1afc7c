import XCTest
@testable import NudgeCore

/// What a click waiter does with each message (docs/desktop.md).
final class NotificationWatchTests: XCTestCase {
    private let watch = NotificationWatch(server: ":1.0", id: 3, buttons: ["COMPLETE_ACTION", "SNOOZE_ACTION"])

    private func signal(_ member: String, from sender: String, _ body: [DBusValue],
                        interface: String = NotificationsBus.interface,
                        path: String = NotificationsBus.path) -> DBusMessage {
        var message = DBusMessage(kind: .signal, path: path, interface: interface, member: member, body: body)
        message.sender = sender
        return message
    }

    func testAButtonOfThisNotificationIsApplied() throws {
        var captured = try DBusMessage.decode(DBusCaptures.actionInvokedFromDunst)
        XCTAssertEqual(NotificationWatch(server: ":1.0", id: 3, buttons: ["SNOOZE"]).step(for: captured),
                       .apply("SNOOZE"))
        captured.body = [.uint32(3), .string("COMPLETE_ACTION")]
        XCTAssertEqual(watch.step(for: captured), .apply("COMPLETE_ACTION"))
    }

    func testABodyClickOrAnActionNotOfferedAppliesNothingAndDismisses() {
        XCTAssertEqual(watch.step(for: signal("ActionInvoked", from: ":1.0", [.uint32(3), .string("default")])),
                       .dismiss)
        XCTAssertEqual(watch.step(for: signal("ActionInvoked", from: ":1.0", [.uint32(3), .string("START_TIMER")])),
                       .dismiss)
    }

    func testClosedByTheServerEndsTheWait() throws {
        XCTAssertEqual(watch.step(for: try DBusMessage.decode(DBusCaptures.notificationClosedFromDunst)), .end)
    }

    func testAnotherNumberAnotherServerOrAnImpostorIsIgnored() {
        XCTAssertEqual(watch.step(for: signal("ActionInvoked", from: ":1.0", [.uint32(4), .string("SNOOZE_ACTION")])),
                       .ignore)
        XCTAssertEqual(watch.step(for: signal("NotificationClosed", from: ":1.9", [.uint32(3), .uint32(2)])),
                       .ignore, "a new server's notification 3 is not ours")
        XCTAssertEqual(watch.step(for: signal("ActionInvoked", from: ":1.0", [.uint32(3), .string("SNOOZE_ACTION")],
                                              interface: "org.example.Other")), .ignore)
        XCTAssertEqual(watch.step(for: signal("NotificationClosed", from: ":1.0", [.uint32(3), .uint32(2)],
                                              path: "/elsewhere")), .ignore)
    }

    func testTheServerLosingItsNameEndsTheWaitAndANewServerStartingDoesNot() {
        let stopped = signal("NameOwnerChanged", from: "org.freedesktop.DBus",
                             [.string(NotificationsBus.name), .string(":1.0"), .string("")],
                             interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
        XCTAssertEqual(watch.step(for: stopped), .end)
        let started = signal("NameOwnerChanged", from: "org.freedesktop.DBus",
                             [.string(NotificationsBus.name), .string(""), .string(":1.5")],
                             interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
        XCTAssertEqual(watch.step(for: started), .ignore)
        let forged = signal("NameOwnerChanged", from: ":1.6",
                            [.string(NotificationsBus.name), .string(":1.0"), .string("")],
                            interface: "org.freedesktop.DBus", path: "/org/freedesktop/DBus")
        XCTAssertEqual(watch.step(for: forged), .ignore)
    }
}
