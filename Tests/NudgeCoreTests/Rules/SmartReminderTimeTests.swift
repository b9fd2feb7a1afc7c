import XCTest
@testable import NudgeCore

/// The learned reminder time: the two-hour window of most plays, 30 minutes before it, clamped to 06:00–22:00.
final class SmartReminderTimeTests: XCTestCase {
    private let now = Fixtures.instant("2026-11-21T12:00:00Z")

    private func learn(_ instants: [String], zone: Zone = Fixtures.utc) -> SmartReminderTime.Result? {
        let plays = instants.map { Play(game: "wordle", at: Fixtures.instant($0)) }
        return SmartReminderTime.compute(plays: plays, now: now, clock: WallClock(zone: zone))
    }

    private func result(_ time: String, start: Int, coverage: Int, plays: Int) -> SmartReminderTime.Result {
        SmartReminderTime.Result(time: Fixtures.time(time), windowStartHour: start, coveragePercent: coverage,
                                 playCount: plays)
    }

    func testSinglePeakRemindsHalfAnHourBeforeItsWindow() {
        // Hours 19, 19, 20 and 8: the window 19–20 holds 3 of 4 plays.
        XCTAssertEqual(learn(["2026-11-20T19:10:00Z", "2026-11-19T19:40:00Z", "2026-11-18T20:05:00Z",
                              "2026-11-17T08:00:00Z"]),
                       result("18:30", start: 19, coverage: 75, plays: 4))
    }

    func testWindowWrapsPastMidnight() {
        // Hours 23, 23, 0, 0, 1: the window 23–0 holds 4; without wrapping 0–1 (3 plays) would win.
        XCTAssertEqual(learn(["2026-11-20T23:30:00Z", "2026-11-19T23:30:00Z", "2026-11-20T00:30:00Z",
                              "2026-11-19T00:30:00Z", "2026-11-18T01:30:00Z"]),
                       result("22:00", start: 23, coverage: 80, plays: 5))
    }

    func testTiesGoToTheEarliestStartHour() {
        // Hours 9, 10, 17, 18: windows 9–10 and 17–18 hold 2 each.
        XCTAssertEqual(learn(["2026-11-20T09:10:00Z", "2026-11-19T10:10:00Z", "2026-11-18T17:10:00Z",
                              "2026-11-17T18:10:00Z"]),
                       result("08:30", start: 9, coverage: 50, plays: 4))
        // A lone play at 00:10 lies in the windows 23–0 and 0–1; start hour 0 is the earlier one.
        XCTAssertEqual(learn(["2026-11-20T00:10:00Z"]), result("22:00", start: 0, coverage: 100, plays: 1))
        // A lone play at 19:40 lies in the windows 18–19 and 19–20; 18 is the earlier start.
        XCTAssertEqual(learn(["2026-11-20T19:40:00Z"]), result("17:30", start: 18, coverage: 100, plays: 1))
    }

    func testEarlyWindowClampsTo0600() {
        // Hours 6, 6, 7: window 6–7, 05:30 before it, clamped.
        XCTAssertEqual(learn(["2026-11-20T06:10:00Z", "2026-11-19T06:20:00Z", "2026-11-18T07:10:00Z"]),
                       result("06:00", start: 6, coverage: 100, plays: 3))
        // Window 7–8: 06:30 is inside the bounds.
        XCTAssertEqual(learn(["2026-11-20T07:10:00Z", "2026-11-19T07:20:00Z", "2026-11-18T08:10:00Z"]),
                       result("06:30", start: 7, coverage: 100, plays: 3))
    }

    func testWindowStartingBetween0100And0600GivesA0600Reminder() {
        // Hours 3, 3, 4: window 3–4, 02:30 before it, clamped to 06:00 (intended).
        XCTAssertEqual(learn(["2026-11-20T03:10:00Z", "2026-11-19T03:20:00Z", "2026-11-18T04:10:00Z"]),
                       result("06:00", start: 3, coverage: 100, plays: 3))
        // Window 1–2: 00:30 clamps up to 06:00, not down to 22:00.
        XCTAssertEqual(learn(["2026-11-20T01:10:00Z", "2026-11-19T01:20:00Z", "2026-11-18T02:10:00Z"]),
                       result("06:00", start: 1, coverage: 100, plays: 3))
    }

    func testLateWindowClampsTo2200() {
        // Window 23–0: 22:30 clamps to 22:00.
        XCTAssertEqual(learn(["2026-11-20T23:10:00Z", "2026-11-19T23:20:00Z", "2026-11-18T00:10:00Z"]),
                       result("22:00", start: 23, coverage: 100, plays: 3))
        // Window 0–1: 23:30 the evening before, clamped to 22:00.
        XCTAssertEqual(learn(["2026-11-20T00:10:00Z", "2026-11-19T00:20:00Z", "2026-11-18T01:10:00Z"]),
                       result("22:00", start: 0, coverage: 100, plays: 3))
        // Window 22–23: 21:30 is inside the bounds.
        XCTAssertEqual(learn(["2026-11-20T22:10:00Z", "2026-11-19T22:20:00Z", "2026-11-18T23:10:00Z"]),
                       result("21:30", start: 22, coverage: 100, plays: 3))
    }

    func testOnlyPlaysOfTheLast30DaysCount() {
        // A lone play in hour 12 lies in the windows 11–12 and 12–13: start 11, reminder 10:30.
        let counted = result("10:30", start: 11, coverage: 100, plays: 1)
        // Exactly 30 days before now is out; one second later is in.
        XCTAssertNil(learn(["2026-10-22T12:00:00Z"]))
        XCTAssertEqual(learn(["2026-10-22T12:00:01Z"]), counted)
        // 29 days old is in.
        XCTAssertEqual(learn(["2026-10-23T12:00:00Z"]), counted)
        // A play at now counts, one after it does not.
        XCTAssertEqual(learn(["2026-11-21T12:00:00Z"]), counted)
        XCTAssertNil(learn(["2026-11-21T12:00:01Z"]))
    }

    func testTheWindowReadsThirtyTimesTwentyFourHoursBackAcrossAFallBack() {
        // Berlin fell back on 25 October: 30 × 24 h before 12:00Z on 21 November is 12:00Z on 22 October
        // (14:00 local then, 13:00 local now), not the same local time 30 calendar days back.
        XCTAssertNil(learn(["2026-10-22T12:00:00Z"], zone: Fixtures.berlin))
        XCTAssertEqual(learn(["2026-10-22T12:00:01Z"], zone: Fixtures.berlin)?.playCount, 1)
    }

    func testOldPlaysDoNotPullTheWindow() {
        // Five morning plays from October's first days are forgotten; the one evening play decides.
        XCTAssertEqual(learn(["2026-10-01T08:10:00Z", "2026-10-02T08:10:00Z", "2026-10-03T08:10:00Z",
                              "2026-10-04T08:10:00Z", "2026-10-05T08:10:00Z", "2026-11-20T21:10:00Z"]),
                       result("19:30", start: 20, coverage: 100, plays: 1))
    }

    func testNoPlaysGivesNothing() {
        XCTAssertNil(learn([]))
    }

    func testCoverageIsAWholePercentRoundedHalfUp() {
        // Hours 10, 10, 15: the window 9–10 holds 2 of 3 = 66.7 % → 67.
        XCTAssertEqual(learn(["2026-11-20T10:10:00Z", "2026-11-19T10:20:00Z", "2026-11-18T15:10:00Z"]),
                       result("08:30", start: 9, coverage: 67, plays: 3))
        // Hours 0, 2, 4 … 14: every window holds 1 of 8 = 12.5 % → 13; start 0 is the earliest.
        XCTAssertEqual(learn(["2026-11-20T00:10:00Z", "2026-11-20T02:10:00Z", "2026-11-20T04:10:00Z",
                              "2026-11-20T06:10:00Z", "2026-11-20T08:10:00Z", "2026-11-20T10:10:00Z",
                              "2026-11-20T12:10:00Z", "2026-11-20T14:10:00Z"]),
                       result("22:00", start: 0, coverage: 13, plays: 8))
        // Hours 9, 12, 15: the best windows hold 1 of 3 = 33.3 % → 33; 8–9 is the earliest of them.
        XCTAssertEqual(learn(["2026-11-20T09:10:00Z", "2026-11-20T12:10:00Z", "2026-11-20T15:10:00Z"]),
                       result("07:30", start: 8, coverage: 33, plays: 3))
    }

    func testHoursAreLocalToTheZone() {
        // Berlin: 18:10Z is 19:10 CET, 17:10Z on 24 October is 19:10 CEST, 19:05Z is 20:05 CET.
        let instants = ["2026-11-20T18:10:00Z", "2026-10-24T17:10:00Z", "2026-11-19T19:05:00Z"]
        XCTAssertEqual(learn(instants, zone: Fixtures.berlin), result("18:30", start: 19, coverage: 100, plays: 3))
        // The same plays in UTC fall in hours 17, 18 and 19.
        XCTAssertEqual(learn(instants, zone: Fixtures.utc), result("16:30", start: 17, coverage: 67, plays: 3))
    }

    func testTwoHundredThousandPlaysInOnePass() {
        // One play every 15 s going back from now: 172,800 fall in the 30 days, 7,200 in every hour.
        let plays = (0..<200_000).map { Play(game: "wordle", at: now.addingTimeInterval(-15 * Double($0))) }
        let started = Date()
        let learned = SmartReminderTime.compute(plays: plays, now: now, clock: WallClock(zone: Fixtures.utc))
        XCTAssertEqual(learned, result("22:00", start: 0, coverage: 8, plays: 172_800))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)  // a sanity bound, not a benchmark
    }

    func testRecomputesAtMostEveryTwoDays() {
        XCTAssertEqual(SmartReminderTime.recomputeInterval, 172_800)
        let computedAt = Fixtures.instant("2026-11-19T12:00:00Z")
        XCTAssertTrue(SmartReminderTime.needsRecompute(computedAt: nil, now: now))
        XCTAssertFalse(SmartReminderTime.needsRecompute(computedAt: computedAt.addingTimeInterval(1), now: now))
        XCTAssertTrue(SmartReminderTime.needsRecompute(computedAt: computedAt, now: now))
        // A result computed in the future (the clock went backwards) is not trusted.
        XCTAssertTrue(SmartReminderTime.needsRecompute(computedAt: now.addingTimeInterval(60), now: now))
    }
}
