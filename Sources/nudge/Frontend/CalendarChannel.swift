import FoundationEssentials
import NudgeCore

/// The calendar channel (docs/calendar.md): after the local channels, a `nudge run` makes the collection of
/// `deliver.calendar` hold the plan's important records, within `timeLimit`. A failure is said once on stderr
/// and left to the next runs; nothing is started and nothing written when nothing changed.
struct CalendarChannel {
    /// The most a run spends on the calendar.
    static let timeLimit: Double = 10
    /// The iCalendar PRODID of every event nudge writes.
    static let product = "-//nudge//nudge \(NudgeCLI.version)//EN"

    let settings: CalendarSettings
    let environment: [String: String]

    /// Matches the calendar to `plan` and notes the outcome in `state`; true when the state changed (the caller
    /// commits it).
    func match(_ state: inout RunState, plan: Plan, now: Date, console: Console) -> Bool {
        var match = CalendarMatch(plan: plan, settings: settings, state: state, now: now, product: Self.product)
        let deadline = Deadline(after: Self.timeLimit)
        var client = CalendarClient(settings: settings, environment: environment)
        while let request = match.next() {
            guard !deadline.hasPassed else {
                match.fail(.transport("\(settings.host) took the run's \(Int(Self.timeLimit)) s for the calendar; "
                    + "the rest waits for the next run"))
                break
            }
            switch client.send(request, before: deadline) {
            case .success(let answer): match.take(answer)
            case .failure(let failure): match.fail(failure)
            }
        }
        if let failure = match.failureToReport { console.error("nudge: calendar: \(failure)") }
        let memory = match.finished(at: now)
        guard memory != state.calendar else { return false }
        state.noteCalendar(memory)
        return true
    }
}
