/// What reading one user file found: its problems (errors) and its unknown keys (warnings for `nudge check`).
public struct FileReport: Equatable, Sendable {
    public var file: UserFile
    public var problems: [DataProblem] = []
    public var unknownKeys: [KeyPath] = []
    /// Unknown key path (as text) → the known key it is probably a misspelling of.
    public var suggestions: [String: String] = [:]

    public var isValid: Bool { problems.isEmpty }

    public init(file: UserFile, problems: [DataProblem] = [], unknownKeys: [KeyPath] = [],
                suggestions: [String: String] = [:]) {
        self.file = file
        self.problems = problems
        self.unknownKeys = unknownKeys
        self.suggestions = suggestions
    }

    /// The warning lines for unknown keys (`nudge check`; for settings.json also `nudge status`):
    /// `settings.json: deliver.comand: unknown key (ignored; did you mean command?)`.
    public var warnings: [String] {
        unknownKeys.map { path in
            let hint = suggestions[path.description].map { "; did you mean \($0)?" } ?? ""
            return "\(file.fileName): \(path): unknown key (ignored\(hint))"
        }
    }
}
