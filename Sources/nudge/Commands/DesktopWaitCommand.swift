import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge desktop-wait` (internal, SPEC §7.1): started by the desktop channel, in a session of its own, for a
/// notification with buttons. It runs notify-send, answers the run on its standard output as soon as the server
/// shows the notification ("shown ID" or "failed: REASON"), then waits for a click and applies it as
/// `nudge act ID ACTION` would. It ends when the notification closes (clicked, dismissed or expired by the
/// server), or at the record's `expiresAt`, when it closes the notification itself: no waiter outlives its
/// notification, and no click can reach a notification nobody waits for.
enum DesktopWaitCommand {
    static let command = Command(
        name: "desktop-wait",
        usage: "nudge desktop-wait --id ID --now T --until T [--data DIR] -- NOTIFY-SEND ARGUMENTS…",
        summary: "(started by nudge) show a notification with buttons and apply the one clicked",
        options: [
            .option("--id", "ID", "the delivered notification's id"),
            .now,
            .option("--until", "T", "its expiresAt: close it then"),
            .data, .help,
        ],
        positionals: 1...64,
        run: run,
        hidden: true)

    /// How long notify-send gets to exit after the notification was closed at its expiry.
    static let closeGrace: Double = 2

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        signal(SIGPIPE, SIG_IGN)
        guard let id = arguments.values["--id"], let until = arguments.values["--until"].flatMap(RFC3339.parse) else {
            throw CLIError.usage("nudge desktop-wait: needs --id and --until; usage: \(command.usage)")
        }
        let directory = DataDirectory(path: try arguments.dataDirectory())
        let clock = RunClock(fixed: arguments.values["--now"].flatMap(RFC3339.parse))
        let environment = ProcessEnvironment.all()
        var argv = arguments.positionals
        // notify-send prints the notification's id when the server shows it, but block-buffered into a pipe it
        // would arrive only at exit; stdbuf (coreutils) makes its output line-buffered.
        let lineBuffered = ChildProcess.find("stdbuf", path: environment["PATH"])
        if let stdbuf = lineBuffered { argv = [stdbuf, "-oL"] + argv }
        guard let output = ChildProcess.pipe(), let errors = ChildProcess.pipe() else {
            answer("failed: cannot make a pipe: \(String(cString: strerror(errno)))", id: id, directory: directory,
                   now: clock.now())
            return .failure
        }
        // In the waiter's own process group: whoever stops the waiter's group (the run, at its answer timeout)
        // stops notify-send with it, so no notification stays on the screen that nobody waits for.
        let spawned = ChildProcess.spawn(argv, environment: environment, stdout: output.write, stderr: errors.write,
                                         placement: .sameGroup)
        close(output.write)
        close(errors.write)
        guard case .success(let pid) = spawned else {
            if case .failure(let error) = spawned {
                answer("failed: cannot start notify-send: \(error.reason)", id: id, directory: directory,
                       now: clock.now())
            }
            return .failure
        }
        var waiter = Waiter(id: id, directory: directory, clock: clock, pid: pid, output: output.read,
                            errors: errors.read, answered: false)
        waiter.waitForClick(until: until, lineBuffered: lineBuffered != nil)
        return .success
    }

    /// Writes the one answer the run waits for, then lets go of the pipe. When the run is gone (killed while it
    /// waited), the waiter records the showing in state.json itself, so the next run does not show it again.
    static func answer(_ text: String, id: String, directory: DataDirectory, now: Date) {
        let line = Array((text + "\n").utf8)
        let written = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, STDOUT_FILENO)
            close(null)
        }
        if text.hasPrefix("shown"), let note = getenv(ChannelExecCommand.noteVariable).map({ String(cString: $0) }) {
            // Shown: a run that dies before it reads this answer leaves the next run to count it as delivered.
            if case .success(let data) = DataDirectory.contents(of: note), var start = ChannelStart(fileContent: data) {
                start.shown = true
                try? AtomicFile.write(start.fileContent, to: note, durability: .derived)
            }
        }
        unsetenv(ChannelExecCommand.noteVariable)
        guard written != line.count, text.hasPrefix("shown") else { return }
        guard let lock = try? DirectoryLock.acquire(in: directory.path, wait: DirectoryLock.editingWait),
              var state = try? directory.loadState() else { return }
        withExtendedLifetime(lock) {
            state.recordCommand(id, channel: .desktop, error: nil, now: now)
            try? directory.write("state.json", state.fileContent)
        }
    }

    /// The wait itself: notify-send's output, line by line, until it ends or the deadline.
    private struct Waiter {
        let id: String
        let directory: DataDirectory
        let clock: RunClock
        let pid: pid_t
        let output: Int32
        let errors: Int32
        var answered: Bool
        var notificationID: String?
        var pending: [UInt8] = []
        var errorText: [UInt8] = []

        mutating func waitForClick(until: Date, lineBuffered: Bool) {
            let started = Date()
            var outputOpen = true
            var errorsOpen = true
            while outputOpen {
                let left = until.timeIntervalSince(clock.now())
                if left <= 0 {
                    closeNotification()
                    return
                }
                // Without stdbuf the id comes only at exit: a notify-send still running after a second showed it.
                if !answered && !lineBuffered && Date().timeIntervalSince(started) > 1 { say("shown") }
                var descriptors = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                                   pollfd(fd: errorsOpen ? errors : -1, events: Int16(POLLIN), revents: 0)]
                let ready = poll(&descriptors, 2, Int32(min(left, 1) * 1000) + 1)
                if ready < 0 && errno != EINTR { break }
                if descriptors[1].revents != 0 { errorsOpen = drain(errors, into: &errorText) }
                if descriptors[0].revents != 0 {
                    outputOpen = drain(output, into: &pending)
                    handleLines()
                }
            }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
            if !answered {
                let reason = String(decoding: errorText, as: UTF8.self).trimmingWhitespace
                let failure = ChildProcess.describe(status: status, program: "notify-send")
                say(failure == nil ? "shown" : "failed: " + (reason.isEmpty ? failure ?? "" : reason))
            }
        }

        /// Reads what is there; false at the end of the stream.
        private func drain(_ descriptor: Int32, into buffer: inout [UInt8]) -> Bool {
            var chunk = [UInt8](repeating: 0, count: 4096)
            let got = read(descriptor, &chunk, chunk.count)
            if got < 0 { return errno == EINTR || errno == EAGAIN }
            buffer += chunk[..<got]
            return got > 0
        }

        /// notify-send prints the notification's id first (`--print-id`), then the name of the action clicked.
        private mutating func handleLines() {
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self).trimmingWhitespace
                pending.removeSubrange(...newline)
                if notificationID == nil, !line.isEmpty, line.allSatisfy(\.isNumber) {
                    notificationID = line
                    say("shown \(line)")
                } else if NotificationAction(rawValue: line) != nil {
                    if !answered { say("shown") }
                    click(line)
                }
            }
        }

        private mutating func say(_ text: String) {
            guard !answered else { return }
            answered = true
            DesktopWaitCommand.answer(text, id: id, directory: directory, now: clock.now())
        }

        /// Applies the click exactly as `nudge act ID ACTION`: under the lock, at most once, re-planning.
        private func click(_ action: String) {
            _ = try? ActCommand.apply(idText: id, actionName: action, directory: directory, now: clock.now(),
                                      console: Console())
        }

        /// At the record's expiry: asks the server to close the notification (notify-send then exits by
        /// itself); stops notify-send if it does not.
        private func closeNotification() {
            let environment = ProcessEnvironment.all()
            if let notificationID {
                let call: [String]?
                if let dbusSend = ChildProcess.find("dbus-send", path: environment["PATH"]) {
                    call = [dbusSend, "--session", "--type=method_call", "--dest=org.freedesktop.Notifications",
                            "/org/freedesktop/Notifications", "org.freedesktop.Notifications.CloseNotification",
                            "uint32:\(notificationID)"]
                } else if let gdbus = ChildProcess.find("gdbus", path: environment["PATH"]) {
                    call = [gdbus, "call", "--session", "--dest", "org.freedesktop.Notifications", "--object-path",
                            "/org/freedesktop/Notifications", "--method",
                            "org.freedesktop.Notifications.CloseNotification", notificationID]
                } else {
                    call = nil
                }
                let null = open("/dev/null", O_WRONLY | O_CLOEXEC)
                if let call, case .success(let caller) = ChildProcess.spawn(call, environment: environment,
                                                                           stdout: null, stderr: null) {
                    _ = ChildProcess.wait(for: caller, program: call[0], timeout: DesktopChannel.answerTimeout)
                }
                close(null)
            }
            let deadline = Date().addingTimeInterval(closeGrace)
            var status: Int32 = 0
            while Date() < deadline {
                if waitpid(pid, &status, WNOHANG) == pid { return }
                usleep(20_000)
            }
            kill(pid, SIGTERM)
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
