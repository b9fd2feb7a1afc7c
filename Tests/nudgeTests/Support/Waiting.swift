import Foundation

/// Waiting for a condition instead of sleeping for a guessed time: on two busy cores a guess is sometimes short.
enum Waiting {
    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    /// Polls `condition` until it holds; throws after `timeout` seconds, a limit for a hung test, not a measure.
    static func until(_ what: String, timeout: TimeInterval = 30, _ condition: () throws -> Bool) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while try !condition() {
            guard Date() < deadline else { throw TimedOut(description: "timed out waiting for \(what)") }
            usleep(5_000)
        }
    }
}
