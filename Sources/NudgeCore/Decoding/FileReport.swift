/// What reading one user file found: its problems (errors) and its unknown keys (warnings for `nudge check`).
public struct FileReport: Equatable, Sendable {
    public var file: UserFile
    public var problems: [DataProblem] = []
    var unknownKeys: [KeyPath] = []
    /// Unknown key path (as text) → the known key it is probably a misspelling of.
    var suggestions: [String: String] = [:]
    /// The entries left out for problems of their own (docs/promises.md).
    public var brokenEntries: [BrokenEntry] = []
    /// settings.json's invalid settings, by top-level key (`quietHours`): each falls back alone (docs/promises.md).
    public var brokenSettings: [SettingsSection] = []
    /// Whether the file's other entries plan as it is now: every problem belongs to a broken entry. A file that
    /// is not JSON, or has a problem outside its entries, is not usable: its last good version stands in whole.
    public var isUsable: Bool

    public var isValid: Bool { problems.isEmpty }

    init(file: UserFile, problems: [DataProblem] = [], unknownKeys: [KeyPath] = [],
         suggestions: [String: String] = [:], brokenEntries: [BrokenEntry] = [], isUsable: Bool? = nil) {
        self.file = file
        self.problems = problems
        self.unknownKeys = unknownKeys
        self.suggestions = suggestions
        self.brokenEntries = brokenEntries
        self.isUsable = isUsable ?? problems.isEmpty
    }

    /// The warning lines for unknown keys (`nudge check`; for settings.json also `nudge status`):
    /// `settings.json: deliver.comand: unknown key (ignored; did you mean command?)`.
    /// An unknown key that is itself a problem (a near miss of a file's list, docs/promises.md) is named as the error only.
    public var warnings: [String] {
        unknownKeys.filter { path in !problems.contains { $0.place == .keyPath(path) } }.map { path in
            let hint = suggestions[path.description].map { "; did you mean \($0)?" } ?? ""
            return "\(file.fileName): \(path): unknown key (ignored\(hint))"
        }
    }
}
