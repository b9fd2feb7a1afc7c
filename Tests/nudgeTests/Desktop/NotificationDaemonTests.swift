import Foundation
import XCTest

/// The desktop channel on notification-daemon, the server of GNOME Flashback (and the reference server of the
/// specification), on Xvfb (docs/desktop.md). It draws the buttons as a row of links at the banner's bottom right.
final class NotificationDaemonTests: X11ServerTestCase {
    override var kind: RealServerSession.Kind { .notificationDaemon }

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
        try checkATerminalActClosesTheBanner(bannerGoes: false)
    }
}
