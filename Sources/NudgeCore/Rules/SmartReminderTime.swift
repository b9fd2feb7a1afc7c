import FoundationEssentials

/// The streak reminder time learned from play history (docs/files.md, `settings.streaks.smart`).
///
/// From the plays of the last 30 days it counts plays per local hour, finds the two consecutive hours with the
/// most plays (wrapping past midnight: 23 and 0), and reminds 30 minutes before that window, clamped to
/// 06:00–22:00 so the reminder never wakes anyone. A window starting between 01:00 and 06:00 therefore gives
/// 06:00 (intended).
///
/// This is a pure function of the plays, `now` and the zone. The caller keeps the result with the instant it
/// was computed in `state.json`, shows it in `nudge status`, and calls `compute` again only when
/// `needsRecompute` says so — at most once every `recomputeInterval` — so the reminder time does not wander from
/// day to day. A nil result (no plays in the last 30 days) is not kept: the manual time applies until plays
/// exist.
enum SmartReminderTime {
    /// A learned reminder time and what it was learned from.
    struct Result: Equatable, Sendable {
        /// When to remind, local wall-clock time, already clamped to 06:00–22:00.
        var time: WallTime
        /// The first hour (0…23) of the two-hour window; the window is this hour and the next, mod 24.
        var windowStartHour: Int
        /// Plays inside the window out of all plays counted, as a whole percent rounded half up (12.5 → 13).
        var coveragePercent: Int
        /// The plays counted: those of the 30 days up to `now`.
        var playCount: Int

        init(time: WallTime, windowStartHour: Int, coveragePercent: Int, playCount: Int) {
            self.time = time
            self.windowStartHour = windowStartHour
            self.coveragePercent = coveragePercent
            self.playCount = playCount
        }
    }

    /// A kept result is recomputed at most this often (2 days).
    static let recomputeInterval: TimeInterval = 2 * 86_400
    /// Plays older than this are forgotten: habits change.
    static let lookback: TimeInterval = 30 * 86_400
    static let windowHours = 2
    static let leadMinutes = 30
    static let earliest = WallTime(hour: 6, minute: 0)!
    static let latest = WallTime(hour: 22, minute: 0)!

    /// Whether a result computed at `computedAt` (nil: none kept) is due for recomputing at `now`.
    /// A result from the future (the clock went backwards) is recomputed rather than trusted.
    static func needsRecompute(computedAt: Date?, now: Date) -> Bool {
        guard let computedAt else { return true }
        return now < computedAt || now.timeIntervalSince(computedAt) >= recomputeInterval
    }

    /// The learned time from the plays with `now − 30 days < at ≤ now`, or nil when there are none.
    ///
    /// One pass over the plays and one fixed 24-bin histogram: O(plays), one zone lookup per counted play.
    static func compute(plays: [Play], now: Date, clock: WallClock) -> Result? {
        let oldest = now.addingTimeInterval(-lookback)
        var histogram = [Int](repeating: 0, count: 24)
        var total = 0
        for play in plays where play.at > oldest && play.at <= now {
            histogram[clock.localDateTime(of: play.at).hour] += 1
            total += 1
        }
        guard total > 0 else { return nil }

        var bestStart = 0
        var bestCount = -1
        for start in 0..<24 {
            var count = 0
            for offset in 0..<windowHours { count += histogram[(start + offset) % 24] }
            if count > bestCount {  // strictly more: ties keep the earliest start hour
                bestStart = start
                bestCount = count
            }
        }
        return Result(time: reminderTime(windowStartHour: bestStart), windowStartHour: bestStart,
                      coveragePercent: (bestCount * 200 + total) / (2 * total), playCount: total)
    }

    /// 30 minutes before the window starts (before midnight for a window starting at 00:00), clamped to
    /// 06:00–22:00.
    static func reminderTime(windowStartHour: Int) -> WallTime {
        let minutes = (windowStartHour * 60 - leadMinutes + 1_440) % 1_440
        let clamped = min(max(minutes, earliest.minutesSinceMidnight), latest.minutesSinceMidnight)
        return WallTime(hour: clamped / 60, minute: clamped % 60) ?? earliest
    }
}
