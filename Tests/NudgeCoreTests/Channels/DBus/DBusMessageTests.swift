import XCTest
@testable import NudgeCore

/// The D-Bus wire format, against bytes real programs wrote (DBusCaptures).
final class DBusMessageTests: XCTestCase {
    func testHelloIsByteForByteWhatDBusSendWrites() {
        var hello = NotificationsBus.hello()
        hello.serial = 1
        XCTAssertEqual(hello.encoded(), DBusCaptures.helloFromDBusSend)
        XCTAssertEqual(DBusMessage.frameLength(DBusCaptures.helloFromDBusSend[...]), 128)
    }

    func testNotifySendsNotifyDecodesAndItsBodyReencodesToTheSameBytes() throws {
        let bytes = DBusCaptures.notifyFromNotifySend
        XCTAssertEqual(DBusMessage.frameLength(bytes[...]), bytes.count)
        let message = try DBusMessage.decode(bytes)
        XCTAssertEqual(message.kind, .methodCall)
        XCTAssertEqual(message.serial, 10)
        XCTAssertEqual(message.member, "Notify")
        XCTAssertEqual(message.interface, "org.freedesktop.Notifications")
        XCTAssertEqual(message.path, "/org/freedesktop/Notifications")
        XCTAssertEqual(message.destination, ":1.0")
        XCTAssertEqual(message.sender, ":1.7")
        XCTAssertEqual(message.signature, "susssasa{sv}i")
        XCTAssertEqual(message.body, [
            .string("nudge"), .uint32(0), .string("appointment-soon"), .string("Morning Prayer Time"),
            .string("Take 15 minutes to pray"), .strings(["SNOOZE", "Snooze"]),
            .dictionary([("category", .string("x-nudge.alarm")), ("sound-name", .string("alarm-clock-elapsed")),
                         ("urgency", .byte(2)), ("sender-pid", .int64(19292))]),
            .int32(-1),
        ])
        // The body starts 8-aligned after the header, so nudge's encoding of the same values is the same bytes.
        var copy = message
        copy.sender = nil
        copy.destination = nil
        let body = Array(copy.encoded().suffix(268))
        XCTAssertEqual(body, Array(bytes.suffix(268)))
    }

    func testDunstsSignalsDecode() throws {
        let invoked = try DBusMessage.decode(DBusCaptures.actionInvokedFromDunst)
        XCTAssertEqual(invoked.kind, .signal)
        XCTAssertEqual(invoked.sender, ":1.0")
        XCTAssertEqual(invoked.member, "ActionInvoked")
        XCTAssertEqual(invoked.body, [.uint32(3), .string("SNOOZE")])
        let closed = try DBusMessage.decode(DBusCaptures.notificationClosedFromDunst)
        XCTAssertEqual(closed.member, "NotificationClosed")
        XCTAssertEqual(closed.body, [.uint32(3), .uint32(3)])
    }

    func testEncodedMessagesDecodeToThemselves() throws {
        var close = NotificationsBus.closeNotification(6, server: ":1.42")
        close.serial = 7
        close.flags = DBusMessage.noReplyExpected
        XCTAssertEqual(try DBusMessage.decode(close.encoded()), close)
        var signal = DBusMessage(kind: .signal, serial: 3, path: "/a", interface: "b.c", member: "D",
                                 body: [.structure([.byte(1), .variant(.boolean(true))]), .strings([]),
                                        .dictionary([]), .objectPath("/x"), .signature("a{sv}")])
        signal.sender = ":1.0"
        XCTAssertEqual(try DBusMessage.decode(signal.encoded()), signal)
    }

    /// The bus's id, which a run compares with the one a killed waiter noted (docs/desktop.md, "A waiter that is
    /// gone"), and the error that says the server a close was sent to has left the bus.
    func testGetIDAsksTheBusAndANameWithoutOwnerIsRecognised() throws {
        var getID = NotificationsBus.getID()
        getID.serial = 2
        XCTAssertEqual(getID.destination, "org.freedesktop.DBus")
        XCTAssertEqual(getID.member, "GetId")
        XCTAssertEqual(getID.body, [])
        XCTAssertEqual(try DBusMessage.decode(getID.encoded()), getID)
        XCTAssertTrue(NotificationsBus.isNoOwnerError("org.freedesktop.DBus.Error.ServiceUnknown"))
        XCTAssertTrue(NotificationsBus.isNoOwnerError("org.freedesktop.DBus.Error.NameHasNoOwner"))
        XCTAssertFalse(NotificationsBus.isNoOwnerError("org.freedesktop.DBus.Error.InvalidArgs"))
    }

    func testABigEndianMessageDecodes() throws {
        // A signal (serial 5) whose body is uint32 258, written most significant byte first.
        let bytes: [UInt8] = [UInt8(ascii: "B"), 4, 0, 1, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 7,
                              8, 1, UInt8(ascii: "g"), 0, 1, UInt8(ascii: "u"), 0, 0,
                              0, 0, 1, 2]
        XCTAssertEqual(DBusMessage.frameLength(bytes[...]), 28)
        let message = try DBusMessage.decode(bytes)
        XCTAssertEqual(message.serial, 5)
        XCTAssertEqual(message.body, [.uint32(258)])
    }

    func testAFrameIsKnownOnlyOnceItsFixedHeaderIsThere() {
        XCTAssertNil(DBusMessage.frameLength(DBusCaptures.helloFromDBusSend.prefix(15)))
    }

    func testBrokenMessagesAreRefusedNotTrapped() throws {
        let hello = DBusCaptures.helloFromDBusSend
        XCTAssertThrowsError(try DBusMessage.decode(Array(hello.dropLast())))
        XCTAssertThrowsError(try DBusMessage.decode([UInt8](repeating: 0, count: 16)))
        var wrongLength = hello
        wrongLength[12] = 0xff   // header fields longer than the message
        XCTAssertThrowsError(try DBusMessage.decode(wrongLength))
        var unsupported = DBusCaptures.actionInvokedFromDunst
        // The body's signature "us" → "ud": a double nudge does not read.
        let signature: [UInt8] = [2, UInt8(ascii: "u"), UInt8(ascii: "s"), 0]
        let at = try XCTUnwrap((0..<unsupported.count - 4).first { Array(unsupported[$0..<$0 + 4]) == signature })
        unsupported[at + 2] = UInt8(ascii: "d")
        XCTAssertThrowsError(try DBusMessage.decode(unsupported)) { error in
            XCTAssertEqual(error as? DBusMessage.DecodingError, .body("ud"))
        }
    }

    func testSignaturesSplitIntoCompleteTypes() {
        XCTAssertEqual(DBusSignature.split("susssasa{sv}i"), ["s", "u", "s", "s", "s", "as", "a{sv}", "i"])
        XCTAssertEqual(DBusSignature.split("a(yv)"), ["a(yv)"])
        XCTAssertNil(DBusSignature.split("a{sv"))
        XCTAssertNil(DBusSignature.split("()"))
    }
}
