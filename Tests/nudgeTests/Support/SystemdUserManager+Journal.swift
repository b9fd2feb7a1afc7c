import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The journal of a `SystemdUserManager` started with `journal: true`: its setup, its journald, and reading it.
extension SystemdUserManager {
    /// The journal's setup, run in the namespace before journald starts, once /sys/fs/cgroup is cgroup v2: there
    /// journald reads a sender's unit (on the hybrid layout it would read the v1 `name=systemd` hierarchy). Tmpfs on
    /// /run/log and /var/log/journal hide the machine's own journal files from this one's `journalctl`; the drop-in
    /// keeps this journal in /run/log (`Storage=volatile`), out of the kernel's ring buffer (`ReadKMsg=no`: the
    /// machine's lines) and away from the machine's terminals (`ForwardToWall=no`); no syslog daemon listens here.
    static let journalMounts = """
        mkdir /run/systemd/journald.conf.d
        printf '%s\\n' '[Journal]' Storage=volatile ReadKMsg=no ForwardToWall=no ForwardToSyslog=no \\
            > /run/systemd/journald.conf.d/nudge-test.conf
        [ -d /run/log ] || mkdir /run/log
        mount -t tmpfs -o mode=0755 nudge-log /run/log
        if [ -d /var/log/journal ]; then mount -t tmpfs -o mode=0755 nudge-journal /var/log/journal; fi
        """

    /// Starts `systemd-journald` in the namespace of the shell that is to become the manager (`pid`), as a child
    /// of the test, so that it is stopped and reaped by its own pid, and waits for its socket. journald's own
    /// diagnostics go to its stderr, a file here, not to the kernel's ring buffer.
    func startJournald() throws {
        _ = FileManager.default.createFile(atPath: journaldLog.path, contents: nil)
        let output = try FileHandle(forWritingTo: journaldLog)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try ExternalTool.require("nsenter", package: "util-linux"))
        process.arguments = ["--target", String(pid), "--mount", "--", Self.journald]
        process.environment = ["SYSTEMD_LOG_TARGET": "console", "PATH": "/usr/bin:/bin"]
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        journaldProcess = process
        let socket = "/proc/\(pid)/root/run/systemd/journal/socket"
        try Waiting.until("systemd-journald's socket", timeout: 20) {
            guard process.isRunning else { throw Failed(description: "systemd-journald ended:\n" + managerLog()) }
            var info = stat()
            return stat(socket, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK
        }
    }

    /// journald's own diagnostics, which `managerLog()` includes.
    var journaldLog: URL { root.appendingPathComponent("journald.log") }

    /// Stops journald by its pid after the manager, which logs to it up to its exit.
    func stopJournald() {
        guard let journald = journaldProcess else { return }
        if journald.isRunning {
            kill(journald.processIdentifier, SIGTERM)
            try? Waiting.until("systemd-journald to exit", timeout: 10) { !journald.isRunning }
            if journald.isRunning { kill(journald.processIdentifier, SIGKILL) }
        }
        journald.waitUntilExit()
        journaldProcess = nil
    }

    /// The entries of this manager's journal that `journalctl ARGUMENTS` selects (`--user-unit nudge.service`,
    /// `-p warning`…), oldest first, once journald has written everything sent to it before the call.
    ///
    /// journald files the lines of root's manager and services in the system journal, not in a `user-0` one, and
    /// `journalctl --user` opens only the latter: here it finds nothing. `--user-unit UNIT` selects what
    /// `--user -u UNIT` selects on a login: the manager's lines about UNIT and the lines UNIT's processes wrote.
    func journal(_ arguments: [String]) throws -> [JournalEntry] {
        guard hasJournal else { throw Failed(description: "this user manager has no journal (journal: false)") }
        let journalctl = try ExternalTool.require("journalctl", package: "systemd")
        // journald answers --sync at its lowest priority: after the lines already waiting on its sockets.
        let sync = try run([journalctl, "--sync"], environment: [:])
        guard sync.status == 0 else { throw Failed(description: sync.summary + managerLog()) }
        let read = try run([journalctl, "--no-pager", "--quiet", "--output=json"] + arguments, environment: [:])
        guard read.status == 0 else { throw Failed(description: read.summary + managerLog()) }
        return try read.stdout.split(separator: "\n").map { try JournalEntry(json: $0) }
    }
}
