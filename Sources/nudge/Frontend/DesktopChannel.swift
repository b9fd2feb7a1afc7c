import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The desktop channel (docs/desktop.md): each delivery as a freedesktop notification on the session bus, found also
/// from cron, sent by nudge's own D-Bus code (`NotifyRequest`) from a small process of nudge's (`nudge
/// desktop-wait`) started for it. The process of a notification with buttons holds its connection, reports
/// back that the notification is on screen, and applies a click as `nudge act` would; the run itself never
/// waits for a click. The one of a notification without buttons sends it over a short connection and ends
/// once the server has shown it (docs/desktop.md says why nothing more is needed).
struct DesktopChannel {
    /// How long a run waits for the waiter to say the notification is on screen.
    static let answerTimeout: Double = 10

    let directory: DataDirectory
    /// nudge's own environment; the session bus is filled in from it for the waiter.
    let environment: [String: String]
    let household: Household
    let clock: WallClock
    /// The run's `now`, from which the waiter's clock goes on (so `--now` runs and their clicks agree).
    let now: Date

    /// Shows the delivery; nil when it is on screen, else what went wrong in words.
    func show(_ delivery: Delivery, wrap: ([String], TimeInterval?) -> [String] = { arguments, _ in arguments })
        -> String? {
        let session: [String: String]
        switch Self.sessionEnvironment(environment) {
        case .success(let filled): session = filled
        case .failure(let missing): return missing.description
        }
        let notification = delivery.notification
        let buttons = NotificationAction.buttons(for: notification, canPlay: canPlay(notification))
        return startWaiter(notification, request: NotifyRequest(notification, buttons: buttons),
                           environment: session, wrap: wrap)
    }

    /// Starts `nudge desktop-wait` in a session of its own and reads its one-line answer: "shown ID" once the
    /// server shows the notification, or "failed: REASON". The waiter of a notification without buttons ends
    /// right after its answer: the run sees it end, so nothing of it is left when the run goes on.
    private func startWaiter(_ notification: NudgeCore.Notification, request: NotifyRequest,
                             environment: [String: String], wrap: ([String], TimeInterval?) -> [String]) -> String? {
        guard let nudge = Self.executablePath() else { return "cannot find nudge's own executable to wait for a click" }
        guard let answer = ChildProcess.pipe() else { return "cannot make a pipe: \(String(cString: strerror(errno)))" }
        let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
        defer { close(null) }
        // Started through `nudge channel-exec` like every channel program: the next run must not show it again
        // while this waiter has it on the screen, even when this run dies before it hears the answer.
        let waiter = wrap([nudge, HelperCommands.desktopWait, "--data", directory.path,
                           "--id", notification.id, "--now", RFC3339.format(now),
                           "--until", RFC3339.format(notification.expiresAt), "--"] + request.arguments, nil)
        let spawned = ChildProcess.spawn(waiter, environment: environment, stdout: answer.write, stderr: null,
                                         placement: .ownSession)
        close(answer.write)
        defer { close(answer.read) }
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let error): return "cannot start the click waiter: \(error.reason)"
        }
        Self.waiters.append(pid)
        guard let line = Self.readLine(answer.read, timeout: Self.answerTimeout) else {
            kill(-pid, SIGKILL)
            return "the notification server did not show the notification within \(Int(Self.answerTimeout)) s"
        }
        if request.buttons.isEmpty {
            _ = ChildProcess.wait(for: pid, program: HelperCommands.desktopWait, timeout: Self.answerTimeout)
        }
        if line.hasPrefix("shown") { return nil }
        return line.hasPrefix("failed: ") ? String(line.dropFirst("failed: ".count)) : "desktop-wait: \(line)"
    }

    /// PLAY_NOW is a button only when the first game the streak reminder names has a `url` (docs/files.md).
    private func canPlay(_ notification: NudgeCore.Notification) -> Bool {
        guard notification.kind == .streakReminder,
              let date = OccurrenceID(notification.id).flatMap({ LocalDate.parse($0.event) }) else { return false }
        return StreakRule.gamesAtRisk(on: date, data: household.streaks, clock: clock).first?.url != nil
    }

    // MARK: - The machine

    /// Waiters started by this process; reaped when a run ends so none stays a zombie while it lingers.
    static var waiters: [pid_t] = []

    static func reapWaiters() {
        var status: Int32 = 0
        waiters.removeAll { waitpid($0, &status, WNOHANG) != 0 }
    }

    /// nudge's environment with the session bus filled in when cron left it out (docs/design.md, "The desktop").
    static func sessionEnvironment(_ environment: [String: String]) -> Result<[String: String], SessionBus.MissingBus> {
        SessionBus.environment(environment, uid: getuid()) { path in
            var info = stat()
            return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK && info.st_uid == getuid()
        }
    }

    /// The running executable, so the waiter is the same nudge as the run.
    static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        return String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// One line from `descriptor` (without its newline), waiting up to `timeout` seconds; nil at the end of the
    /// stream or the deadline before a line came.
    static func readLine(_ descriptor: Int32, timeout: Double) -> String? {
        let deadline = Deadline(after: timeout)
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let left = deadline.remaining
            guard left > 0 else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, Int32(min(left, 1) * 1000) + 1)
            if ready < 0 && errno != EINTR { return nil }
            guard ready > 0 else { continue }
            let got = read(descriptor, &byte, 1)
            if got < 0 && errno == EINTR { continue }
            guard got == 1 else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
