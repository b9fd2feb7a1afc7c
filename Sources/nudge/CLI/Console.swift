import FoundationEssentials
import Glibc

/// Where results (stdout) and diagnostics (stderr) go. Results never share a stream with errors, so
/// `nudge run --json | jq` always sees only delivery objects.
///
/// When stderr is the journal (systemd names it in `JOURNAL_STREAM`), every diagnostic line starts with its
/// sd-daemon priority (`<3>`, `<4>`, `<6>`): `journalctl --user -u nudge -p err` then finds the errors, and the
/// service's `LogLevelMax=notice` keeps the manager's own per-run lines out (docs/promises.md, a quiet journal).
/// On a terminal, in cron's mail or a pipe, the lines are plain.
struct Console {
    /// A diagnostic's priority, as syslog and the journal number them.
    enum Priority: Int {
        case error = 3, warning = 4, notice = 5, info = 6
    }

    /// Whether stderr is the journal: `JOURNAL_STREAM` ("DEVICE:INODE") names the very file stderr is.
    static let stderrIsJournal: Bool = {
        guard let stream = getenv("JOURNAL_STREAM").map({ String(cString: $0) }) else { return false }
        return JournalStream.names(stream, descriptor: STDERR_FILENO)
    }()

    func out(_ text: String) {
        fputs(text + "\n", stdout)
    }

    /// Writes `text` to stdout as it is, its own line ends included (an iCalendar file's CRLF).
    func write(_ text: String) {
        fputs(text, stdout)
    }

    /// Writes a diagnostic to stderr: an error unless said otherwise.
    func error(_ text: String, priority: Priority = .error) {
        fflush(stdout)
        fputs(Self.prefixed(text, priority, journal: Self.stderrIsJournal) + "\n", stderr)
    }

    func warning(_ text: String) { error(text, priority: .warning) }

    /// Worth a line in the journal, not a warning (the service keeps `notice` and above).
    func notice(_ text: String) { error(text, priority: .notice) }

    func info(_ text: String) { error(text, priority: .info) }

    func flush() {
        fflush(stdout)
        fflush(stderr)
    }

    /// Flushes stdout; the reason in words when anything written to it was lost, else nil.
    func outputFailure() -> String? {
        let flushed = fflush(stdout) == 0
        let failedBefore = ferror(stdout) != 0
        guard !flushed || failedBefore else { return nil }
        return String(cString: strerror(errno == 0 ? EIO : errno))
    }

    /// `text` with each of its lines led by `<N>` for the journal, which takes each line as a record of its own;
    /// unchanged elsewhere.
    static func prefixed(_ text: String, _ priority: Priority, journal: Bool) -> String {
        guard journal else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "<\(priority.rawValue)>" + $0 }.joined(separator: "\n")
    }
}
