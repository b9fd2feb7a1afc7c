/// What reading one user file found: its problems (errors) and its unknown keys (warnings for `nudge check`).
public struct FileReport: Equatable, Sendable {
    public var file: UserFile
    public var problems: [DataProblem] = []
    public var unknownKeys: [KeyPath] = []

    public var isValid: Bool { problems.isEmpty }

    public init(file: UserFile, problems: [DataProblem] = [], unknownKeys: [KeyPath] = []) {
        self.file = file
        self.problems = problems
        self.unknownKeys = unknownKeys
    }

    /// `nudge check`'s warning lines for unknown keys.
    public var warnings: [String] {
        unknownKeys.map { "\(file.fileName): \($0): unknown key (ignored)" }
    }
}
