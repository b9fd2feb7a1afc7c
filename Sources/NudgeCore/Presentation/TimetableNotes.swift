/// The notes below `nudge times`' table: per reason, the prayers and dates it applies to, and for resolved
/// times the latitudes or dates `polar` took them from.
struct TimetableNotes {
    private var notes: [(reason: String, prayers: [Prayer], dates: [LocalDate], sources: [PolarResolution.Source])] = []

    /// Notes that `reason` applies to `prayer` on `date`, with the source of a resolved time.
    mutating func add(_ reason: String, _ prayer: Prayer, _ date: LocalDate, source: PolarResolution.Source? = nil) {
        let index = notes.firstIndex { $0.reason == reason } ?? notes.count
        if index == notes.count { notes.append((reason, [], [], [])) }
        if !notes[index].prayers.contains(prayer) { notes[index].prayers.append(prayer) }
        if notes[index].dates.last != date { notes[index].dates.append(date) }
        if let source, !notes[index].sources.contains(source) { notes[index].sources.append(source) }
    }

    /// "— fajr, isha on 69 of the days, 2026-05-10 to 2026-08-01: the sun does not set that day (midnight sun)";
    /// a resolved one ends with where its times come from: "(65.15° N to 66.65° N)".
    var lines: [String] {
        notes.map { note in
            let dates = note.dates.count == 1 ? "on \(note.dates[0])"
                : "on \(note.dates.count) of the days, \(note.dates[0]) to \(note.dates[note.dates.count - 1])"
            let mark = note.reason.prefix(2), reason = note.reason.dropFirst(2)
            return "\(mark)\(note.prayers.map(\.rawValue).joined(separator: ", ")) \(dates): \(reason)"
                + Self.sourcesText(note.sources)
        }
    }

    /// " (65.15° N to 66.65° N)", " (from 2026-05-18 and 2026-07-27)": the range of latitudes or dates.
    private static func sourcesText(_ sources: [PolarResolution.Source]) -> String {
        let latitudes = sources.compactMap { if case let .latitude(value) = $0 { value } else { nil } }
        let dates = sources.compactMap { if case let .date(value) = $0 { value } else { nil } }.sorted()
        if let low = latitudes.map(abs).min(), let high = latitudes.map(abs).max() {
            let side = latitudes[0] < 0 ? "S" : "N"
            let number = PrayerTimetable.number
            return low == high ? " (\(number(low))° \(side))" : " (\(number(low))° \(side) to \(number(high))° \(side))"
        }
        guard let first = dates.first, let last = dates.last else { return "" }
        return first == last ? " (from \(first))" : " (from dates \(first) to \(last))"
    }
}
