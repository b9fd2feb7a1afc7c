import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An unprivileged user of this machine for programs that refuse root (sway). `.ci/run` creates it
/// (`useradd --system nudge-desktop`); where it is missing, the test skips (fails under CI) saying so.
struct TestUser {
    static let name = "nudge-desktop"

    let name: String
    let uid: uid_t
    let gid: gid_t

    static func find() throws -> TestUser {
        guard let entry = getpwnam(name) else {
            throw RealPart.missing("no user \(name) to run the desktop as (sway refuses root): "
                + "`useradd --system --user-group \(name)`, as .ci/run does")
        }
        return TestUser(name: name, uid: entry.pointee.pw_uid, gid: entry.pointee.pw_gid)
    }
}
