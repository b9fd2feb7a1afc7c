import FoundationEssentials

/// What a pass records of itself in the state it leaves, for `status` and for the systemd wake (docs/design.md,
/// "One run"): why it ran, and what the shell found reading the files.
public struct PassRecord: Equatable, Sendable {
    /// Why a pass plans.
    public enum Kind: Equatable, Sendable {
        /// `nudge run`, by cron, a person or, with `systemd`, the units of `nudge init --systemd`.
        case run(systemd: Bool)
        /// The pass an editing command runs after its edit: no run, so `status` goes on reporting what the last
        /// `nudge run` delivered, missed and suppressed.
        case replanAfterEdit
    }

    var kind: Kind
    /// Problems found in the user files, as printed.
    var fileErrors: [String]
    /// What nudge does about each of them, as printed.
    var fileNotes: [String]
    /// Why the zone is not exactly what `TZ` asks for (docs/promises.md); nil when it is.
    var zoneWarning: String?

    public init(kind: Kind = .run(systemd: false), fileErrors: [String] = [], fileNotes: [String] = [],
                zoneWarning: String? = nil) {
        self.kind = kind
        self.fileErrors = fileErrors
        self.fileNotes = fileNotes
        self.zoneWarning = zoneWarning
    }
}
