import XCTest
@testable import NudgeCore

/// What the clock's history settles without a ledger entry (SPEC §11.41, §11.43).
final class SettledSpanTests: XCTestCase {
    private func at(_ text: String) -> Date { Fixtures.instant(text) }

    func testAClockMovingForwardKeepsOneSpanThatSettlesWhatExpiredBeforeIt() {
        var spans: [SettledSpan] = []
        spans = SettledSpan.adding(at("2026-03-01T00:00:00Z"), to: spans)
        spans = SettledSpan.adding(at("2026-03-05T00:00:00Z"), to: spans)
        XCTAssertEqual(spans, [SettledSpan(latest: at("2026-03-05T00:00:00Z"), lowest: at("2026-03-05T00:00:00Z"))])
        XCTAssertTrue(spans.settle(fireAt: at("2026-03-04T10:00:00Z"), expiresAt: at("2026-03-04T16:00:00Z")))
        XCTAssertFalse(spans.settle(fireAt: at("2026-03-04T10:00:00Z"), expiresAt: at("2026-03-05T00:00:00Z")),
                       "not expired before the run: it may still be due")
    }

    func testAStepBackReopensOnlyWhatFiresAfterTheCorrectedClock() {
        var spans = SettledSpan.adding(at("2026-03-10T00:00:00Z"), to: [])
        spans = SettledSpan.cut(spans, at: at("2026-03-05T12:00:00Z"))
        XCTAssertTrue(spans.settle(fireAt: at("2026-03-05T11:00:00Z"), expiresAt: at("2026-03-05T17:00:00Z")),
                      "fired before the corrected clock: seen, missed or suppressed stays so")
        XCTAssertFalse(spans.settle(fireAt: at("2026-03-06T11:00:00Z"), expiresAt: at("2026-03-06T17:00:00Z")),
                       "ahead of the corrected clock: due at its time again unless delivered")
    }

    func testEachExcursionThatHasNotCaughtUpKeepsItsOwnSpanUntilTheClockPassesTheLatest() {
        var spans = SettledSpan.adding(at("2026-03-10T00:00:00Z"), to: [])
        spans = SettledSpan.adding(at("2026-03-01T00:00:00Z"), to: spans)
        spans = SettledSpan.adding(at("2026-03-04T00:00:00Z"), to: spans)
        XCTAssertEqual(spans, [SettledSpan(latest: at("2026-03-10T00:00:00Z"), lowest: at("2026-03-01T00:00:00Z")),
                               SettledSpan(latest: at("2026-03-04T00:00:00Z"), lowest: at("2026-03-04T00:00:00Z"))])
        XCTAssertTrue(spans.settle(fireAt: at("2026-03-02T10:00:00Z"), expiresAt: at("2026-03-02T16:00:00Z")))
        XCTAssertFalse(spans.settle(fireAt: at("2026-03-05T10:00:00Z"), expiresAt: at("2026-03-05T16:00:00Z")))
        spans = SettledSpan.adding(at("2026-02-20T00:00:00Z"), to: spans)
        XCTAssertFalse(spans.settle(fireAt: at("2026-03-02T10:00:00Z"), expiresAt: at("2026-03-02T16:00:00Z")),
                       "a further step back reopens it")
        spans = SettledSpan.adding(at("2026-03-11T00:00:00Z"), to: spans)
        XCTAssertEqual(spans, [SettledSpan(latest: at("2026-03-11T00:00:00Z"), lowest: at("2026-03-11T00:00:00Z"))])
    }

    /// No span's `lowest` is ever after the last run's `now`: a clock set back below a span is always a clock set
    /// back below the previous run, so the planner's forget (run only when now < lastRunAt) never misses a cut.
    func testNoSpanReachesAboveTheLastRunWhateverTheClockDoes() {
        let readings = ["2026-03-10T00:00:00Z", "2026-03-01T00:00:00Z", "2026-03-04T00:00:00Z", "2026-03-02T00:00:00Z",
                        "2026-03-12T00:00:00Z", "2026-03-12T00:00:00Z", "2026-02-01T00:00:00Z", "2026-03-11T00:00:00Z",
                        "2026-03-05T00:00:00Z", "2026-03-20T00:00:00Z"]
        var spans: [SettledSpan] = []
        for reading in readings {
            spans = SettledSpan.adding(at(reading), to: SettledSpan.cut(spans, at: at(reading)))
            XCTAssertTrue(spans.allSatisfy { $0.lowest <= at(reading) }, reading)
        }
    }
}
