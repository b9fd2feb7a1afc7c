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

    /// Matches the calendar to `plan` and notes the outcome in `state` (`household`: the files the run read);
    /// true when the state changed (the caller commits it).
    func match(_ state: inout RunState, plan: Plan, household: Household, now: Date, console: Console) -> Bool {
        var match = CalendarMatch(plan: plan, settings: settings, state: state, household: household, now: now,
                                  product: Self.product)
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

    /// The collection as PROPFIND finds it (`nudge check`).
    func collection() -> Result<CalendarCollection, CalendarFailure> {
        var client = CalendarClient(settings: settings, environment: environment)
        return client.send(CalendarCollection.propfind(settings), before: Deadline(after: Self.timeLimit))
            .flatMap { CalendarCollection.of($0, settings) }
    }

    /// Makes the collection when it is missing (`nudge init --calendar`); true when it made it, false when a
    /// calendar that takes events was there.
    func makeCollection() -> Result<Bool, CalendarFailure> {
        var client = CalendarClient(settings: settings, environment: environment)
        let deadline = Deadline(after: Self.timeLimit)
        let found = client.send(CalendarCollection.propfind(settings), before: deadline)
            .flatMap { CalendarCollection.of($0, settings) }
        switch found {
        case .failure(let failure): return .failure(failure)
        case .success(.calendar): return .success(false)
        case .success(.missing): break
        case .success(let other): return .failure(.transport(other.problem(settings.url) ?? ""))
        }
        return client.send(CalendarCollection.mkcalendar(settings), before: deadline).flatMap {
            CalendarCollection.made($0, settings).map { true }
        }
    }
}
