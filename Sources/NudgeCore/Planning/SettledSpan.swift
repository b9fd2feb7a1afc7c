import FoundationEssentials

/// A stretch of the clock's history that settles occurrences without a ledger entry: every occurrence that
/// expired before `latest` and fired at or before `lowest` has had its outcome (delivered, seen, missed,
/// suppressed, or passed over as too old), and no run may deliver it or count it as missed again.
///
/// Why it holds: a run at `now` leaves nothing that expired before `now` to a later run — what fell due since
/// the previous run and expired is recorded as missed by that very run, everything older was dealt with by an
/// earlier run or was already expired when it appeared. A later clock keeps it settled (SPEC §11.41: seen,
/// missed or suppressed stays so). Only a clock set back before an occurrence's fireAt reopens it (§11.43: it
/// is due at that time again unless delivered), so each step back lowers `lowest` to the corrected clock;
/// deliveries stay known through `DeliveredDates` and the ledger. With the spans in hand, the ledger can forget
/// seen, missed and suppressed entries, and the clock may go back any distance, any number of times.
///
/// The spans hold for the zone the runs planned in. On the first run after a zone change the planner does not
/// ask them about a dated occurrence (alarm, daily message, streak reminder, leave-time, prayer timer): the new
/// wall clock may pass a date whose instant a span covers (Tokyo's morning alarm or leave-time, before the last
/// run in Berlin), and that date must still ring or be recorded missed. Its outcome, if it had one, is kept for
/// good by its date (the ledger, `DeliveredDates`, `SettledDates`).
public struct SettledSpan: Equatable, Sendable {
    public var latest: Date
    public var lowest: Date

    public init(latest: Date, lowest: Date) {
        self.latest = latest
        self.lowest = lowest
    }

    /// Whether an occurrence with these times is settled by this span.
    func settles(fireAt: Date, expiresAt: Date) -> Bool {
        expiresAt < latest && fireAt <= lowest
    }

    /// The spans once the clock reads `now`, before a run plans: a clock set back below a span's `lowest`
    /// reopens what fires after `now` (SPEC §11.43).
    static func cut(_ spans: [SettledSpan], at now: Date) -> [SettledSpan] {
        guard spans.contains(where: { $0.lowest > now }) else { return spans }
        return spans.map { SettledSpan(latest: $0.latest, lowest: min($0.lowest, now)) }
    }

    /// The spans after a run at `now` has recorded every outcome: the run settles what expired before `now`.
    /// A span inside another says nothing more and is dropped, so there is one span per excursion of the clock
    /// below its latest reading that has not yet caught up: one while the clock only moves forward.
    static func adding(_ now: Date, to spans: [SettledSpan]) -> [SettledSpan] {
        let current = SettledSpan(latest: now, lowest: now)
        if spans.count == 1, spans[0].latest <= now { return [current] }
        if spans.allSatisfy({ $0.latest <= now }) { return [current] }
        let all = cut(spans, at: now) + [current]
        var kept: [SettledSpan] = []
        for (index, span) in all.enumerated() {
            let covered = all.indices.contains { other in
                other != index && all[other].latest >= span.latest && all[other].lowest >= span.lowest
                    && (all[other] != span || other > index)
            }
            if !covered { kept.append(span) }
        }
        return kept.sorted { $0.latest > $1.latest }
    }
}

extension Array where Element == SettledSpan {
    /// Whether any span settles an occurrence with these times.
    func settle(fireAt: Date, expiresAt: Date) -> Bool {
        contains { $0.settles(fireAt: fireAt, expiresAt: expiresAt) }
    }
}
