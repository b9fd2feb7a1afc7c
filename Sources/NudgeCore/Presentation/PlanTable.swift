import FoundationEssentials

/// `nudge plan`'s table: the plan sorted by time, in local time, with "in 12 min" and the budget.
public enum PlanTable {
    /// `lastRun`: when the last `nudge run` was (the stale-timer warning); an editing command's re-plan also
    /// rewrites the plan, so its `generatedAt` alone would hide a dead timer. `wokenBySystemd`: the last run was
    /// `nudge run --systemd`, which is due again at the plan's `nextWakeAt`.
    /// `settingsZone`: settings.json's `timeZone`, which says where the zone comes from (docs/travelling.md, "The zone").
    public static func render(_ plan: Plan, now: Date, zone: Zone, lastRun: Date? = nil,
                              wokenBySystemd: Bool = false, settingsZone: String? = nil) -> String {
        let clock = WallClock(zone: zone)
        var lines: [String] = []
        lines.append("Plan generated \(TextFormat.localDateTime(plan.generatedAt, clock)) "
            + "(\(TextFormat.relative(plan.generatedAt, from: now))), zone "
            + ZoneOrigin.describe(plan.timeZone, settingsZone: settingsZone))
        if let stale = StaleRun.warning(lastRunAt: lastRun ?? plan.generatedAt, now: now,
                                        wokenBySystemd: wokenBySystemd, nextWakeAt: plan.nextWakeAt) {
            lines.append(stale)
        }
        lines.append("Budget: \(bar(plan.budget)) \(plan.budget.pending)/\(plan.budget.limit) "
            + "\(plan.budget.level.rawValue) — \(plan.budget.message)")
        lines.append("")
        if plan.pending.isEmpty {
            lines.append("Nothing pending.")
        } else {
            lines += table(plan.pending.map { ($0.fireAt, $0.priority, $0.kind, "\($0.title) — \($0.body)") },
                           clock: clock, now: now)
        }
        if !plan.deferred.isEmpty {
            lines.append("")
            lines.append("Deferred by the budget (\(plan.deferred.count)):")
            lines += table(plan.deferred.map { ($0.fireAt, $0.priority, $0.kind, $0.title) }, clock: clock, now: now)
        }
        if let wake = plan.nextWakeAt {
            lines.append("")
            lines.append("Next wake: \(TextFormat.localStamp(wake, clock)) (\(TextFormat.relative(wake, from: now)))")
        }
        return lines.joined(separator: "\n")
    }

    /// `[#######-----------------------]`: 30 cells, filled in proportion to pending / limit.
    static func bar(_ budget: BudgetStatus) -> String {
        let width = 30
        let filled = budget.limit > 0 ? min(width, (budget.pending * width + budget.limit - 1) / budget.limit) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// One row per record: when, in how long, priority, kind and its text (a deferred record has no body).
    private static func table(_ records: [(fireAt: Date, priority: Priority, kind: NotificationKind, text: String)],
                              clock: WallClock, now: Date) -> [String] {
        let rows = records.map { record in
            [TextFormat.localStamp(record.fireAt, clock), TextFormat.relative(record.fireAt, from: now),
             record.priority.rawValue, record.kind.rawValue, record.text]
        }
        let header = ["WHEN", "IN", "PRIORITY", "KIND", "NOTIFICATION"]
        let widths = header.indices.map { column in
            ([header] + rows).map { $0[column].count }.max() ?? 0
        }
        return ([header] + rows).map { row in
            row.indices.map { column in
                column == row.count - 1 ? row[column] : TextFormat.column(row[column], widths[column])
            }.joined(separator: "  ")
        }
    }
}
