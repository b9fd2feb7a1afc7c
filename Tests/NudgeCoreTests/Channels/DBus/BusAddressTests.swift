import XCTest
@testable import NudgeCore

/// Reading `DBUS_SESSION_BUS_ADDRESS` and the authentication lines of a bus connection.
final class BusAddressTests: XCTestCase {
    func testPathAbstractEscapesAndTheFirstUnixEntryCount() {
        XCTAssertEqual(BusAddress.parse("unix:path=/run/user/1000/bus"), .path("/run/user/1000/bus"))
        XCTAssertEqual(BusAddress.parse("unix:abstract=/tmp/dbus-Ab12,guid=0f3c"), .abstract("/tmp/dbus-Ab12"))
        XCTAssertEqual(BusAddress.parse("unix:path=/tmp/my%20bus%2csocket"), .path("/tmp/my bus,socket"))
        XCTAssertEqual(BusAddress.parse("tcp:host=localhost,port=1;unix:path=/b"), .path("/b"))
        XCTAssertEqual(BusAddress.parse("unix:guid=1,path=/c"), .path("/c"))
    }

    func testAddressesNudgeCannotUseAreNil() {
        XCTAssertNil(BusAddress.parse(""))
        XCTAssertNil(BusAddress.parse("tcp:host=localhost,port=4000"))
        XCTAssertNil(BusAddress.parse("unix:tmpdir=/tmp"))
        XCTAssertNil(BusAddress.parse("unix:path=/broken%2"))
        XCTAssertNil(BusAddress.parse("unix:path="))
    }

    func testExternalAuthenticationSendsTheUidsDigitsInHex() {
        XCTAssertEqual(BusAuthentication.request(uid: 0), [0] + Array("AUTH EXTERNAL 30\r\n".utf8),
                       "what dbus-send sends as root")
        XCTAssertEqual(BusAuthentication.request(uid: 1000), [0] + Array("AUTH EXTERNAL 31303030\r\n".utf8))
        XCTAssertEqual(BusAuthentication.answer("OK 0123456789abcdef"), .accepted("0123456789abcdef"))
        XCTAssertEqual(BusAuthentication.answer("REJECTED EXTERNAL"), .refused("REJECTED EXTERNAL"))
    }
}
