import XCTest
@testable import NudgeCore

/// Finding the desktop's session bus without help from cron (docs/design.md, "The desktop").
final class SessionBusTests: XCTestCase {
    func testAGivenAddressIsUsedAsItIs() {
        let environment = ["DBUS_SESSION_BUS_ADDRESS": "unix:path=/elsewhere/bus"]
        XCTAssertEqual(SessionBus.resolve(environment: environment, uid: 1000) { _ in false },
                       .given("unix:path=/elsewhere/bus"))
    }

    func testTheRuntimeDirectoryComesFirstThenRunUser() {
        XCTAssertEqual(SessionBus.resolve(environment: ["XDG_RUNTIME_DIR": "/tmp/rt"], uid: 1000) { $0 == "/tmp/rt/bus" },
                       .found(address: "unix:path=/tmp/rt/bus", runtimeDirectory: "/tmp/rt"))
        XCTAssertEqual(SessionBus.resolve(environment: [:], uid: 1000) { $0 == "/run/user/1000/bus" },
                       .found(address: "unix:path=/run/user/1000/bus", runtimeDirectory: "/run/user/1000"))
    }

    func testCronsEnvironmentGetsTheBusFilledIn() throws {
        let filled = try SessionBus.environment(["HOME": "/home/sam", "PATH": "/usr/bin"], uid: 1000) {
            $0 == "/run/user/1000/bus"
        }.get()
        XCTAssertEqual(filled["DBUS_SESSION_BUS_ADDRESS"], "unix:path=/run/user/1000/bus")
        XCTAssertEqual(filled["XDG_RUNTIME_DIR"], "/run/user/1000")
        XCTAssertEqual(filled["HOME"], "/home/sam")
    }

    func testNoBusIsSaidInWords() {
        guard case .failure(let missing) = SessionBus.environment(["XDG_RUNTIME_DIR": "/tmp/rt"], uid: 1000, isUserSocket: { _ in false }) else {
            return XCTFail("there is no bus")
        }
        XCTAssertEqual(missing.description, "no desktop session bus: not logged in to a desktop? "
            + "(DBUS_SESSION_BUS_ADDRESS is not set and there is no socket of yours at /tmp/rt/bus or "
            + "/run/user/1000/bus)")
    }
}
