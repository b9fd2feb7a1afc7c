import Foundation
import XCTest

/// A real program or machine feature that a test needs (a notification server, flock(1), systemd-analyze, a free
/// X display). Where one is missing, the test skips on a developer's machine but fails under CI (`CI=true`, which
/// `.ci/run` sets and installs every part for): there a skip would let a regression pass unseen.
enum RealPart {
    struct Missing: Error, CustomStringConvertible {
        let description: String
    }

    static var mustBePresent: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The error to throw when a real part is missing: a skip, or under CI a failure.
    static func missing(_ reason: String) -> Error {
        mustBePresent ? Missing(description: "CI=true and a real part is missing: \(reason)") : XCTSkip(reason)
    }
}
