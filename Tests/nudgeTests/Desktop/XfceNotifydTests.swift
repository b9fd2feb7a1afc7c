import Foundation
import XCTest

/// The desktop channel on Xfce's notification server, xfce4-notifyd, on Xvfb (docs/desktop.md). Its settings daemon
/// (xfconfd) is started by the private bus on demand and ends with it.
final class XfceNotifydTests: X11ServerTestCase {
    override var kind: RealServerSession.Kind { .xfce }

    func testCriticalAlarmArrivesWithItsButtonsAndASnoozeClickAppliesOnce() throws {
        try checkCriticalAlarmArrivesWithItsButtonsAndASnoozeClickAppliesOnce()
    }

    func testALowNoteWithSoundOffArrivesLowSilentWithoutButtons() throws {
        try checkALowNoteWithSoundOffArrivesLowSilentWithoutButtons()
    }

    func testABodyClickAppliesNothingAndEndsTheWaiter() throws {
        try checkABodyClickAppliesNothingAndEndsTheWaiter()
    }

    func testExpiryClosesTheBannerFromTheConnectionThatCreatedIt() throws {
        try checkExpiryClosesTheBannerFromTheConnectionThatCreatedIt()
    }

    func testARestartedServerEndsTheWaiterAndNothingOfAnotherApplicationIsClosed() throws {
        try checkARestartedServerEndsTheWaiterAndNothingOfAnotherApplicationIsClosed()
    }

    func testATerminalActClosesTheNotificationItSettled() throws {
        try checkATerminalActClosesTheBanner()
    }
}
