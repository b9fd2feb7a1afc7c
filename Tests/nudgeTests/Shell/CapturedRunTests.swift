import XCTest
@testable import nudge
#if canImport(Glibc)
import Glibc
#endif

/// `CapturedRun`, which runs curl(1) and the password command: input on stdin, both outputs back, a deadline.
final class CapturedRunTests: XCTestCase {
    func testInputGoesInAndBothOutputsComeBack() {
        let run = CapturedRun(["sh", "-c", "cat; echo oops >&2; exit 3"], input: Array("request\n".utf8),
                              environment: ["PATH": "/usr/bin:/bin"], deadline: Deadline(after: 10))
        XCTAssertEqual(run.ending, .exited(3))
        XCTAssertEqual(String(decoding: run.stdout, as: UTF8.self), "request\n")
        XCTAssertEqual(String(decoding: run.stderr, as: UTF8.self), "oops\n")
    }

    /// A password command that leaves a process behind holding its output (a keyring helper started on first use)
    /// is done when it exits, with what it printed, not at the deadline.
    func testAProgramThatExitedIsDoneThoughAProcessItLeftHoldsItsOutput() throws {
        let run = CapturedRun(["sh", "-c", "sleep 60 & echo $!; echo s3cret"], input: [],
                              environment: ["PATH": "/usr/bin:/bin"], deadline: Deadline(after: 5))
        let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n")
        if let left = lines.first.flatMap({ pid_t($0) }) { kill(left, SIGKILL) }
        XCTAssertEqual(run.ending, .exited(0), "not timed out")
        XCTAssertEqual(lines.last, "s3cret")
    }

    func testTheDeadlineStopsAProgramAndItsGroup() {
        let run = CapturedRun(["sleep", "60"], input: [], environment: ["PATH": "/usr/bin:/bin"],
                              deadline: Deadline(after: 0.3))
        XCTAssertEqual(run.ending, .timedOut)
    }
}
