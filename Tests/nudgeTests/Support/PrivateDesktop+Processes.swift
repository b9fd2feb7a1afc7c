import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Starting, running and stopping the desktop's programs: each by its pid, all in the desktop's process group.
extension PrivateDesktop {
    /// Runs a helper program to its end on this session's bus and display, as the test's own user.
    @discardableResult
    func run(_ program: String, _ arguments: [String], asOwner: Bool = false) -> (status: Int32, stdout: String) {
        let (path, argv) = command(program, arguments, asOwner: asOwner)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(argv.dropFirst())
        process.environment = environment()
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return (-1, "") }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// Shows a notification of another application, as a person's other programs do: `gdbus call` of Notify
    /// with the app name "other" and no actions, hints or expiry of its own. False when it did not go through.
    func notifyAsAnotherApplication(_ summary: String) -> Bool {
        let text = "'" + summary.replacingOccurrences(of: "'", with: "\\'") + "'"
        return run("gdbus", ["call", "--session", "--dest", "org.freedesktop.Notifications",
                             "--object-path", "/org/freedesktop/Notifications",
                             "--method", "org.freedesktop.Notifications.Notify",
                             "@s 'other'", "@u 0", "@s ''", "@s " + text, "@s ''", "@as []", "@a{sv} {}", "@i -1"])
            .status == 0
    }

    /// Starts a program in the session's process group, with standard output and error to the files named or
    /// nowhere; as the owner when asked (and the desktop has one). Returns its pid.
    @discardableResult
    func launch(_ program: String, _ arguments: [String], output: String? = nil, errors: String? = nil,
                asOwner: Bool = false) throws -> pid_t {
        let (path, argv) = command(program, arguments, asOwner: asOwner)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output ?? "/dev/null", O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errors ?? "/dev/null", O_WRONLY | O_APPEND | O_CREAT, 0o644)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, group)   // 0: a new group, led by the first process
        let cArguments = argv.map { strdup($0) } + [nil]
        let cEnvironment = environment().map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, path, &actions, &attributes, cArguments, cEnvironment)
        guard result == 0 else {
            throw Waiting.TimedOut(description: "cannot start \(path): \(String(cString: strerror(result)))")
        }
        if group == 0 { group = pid }
        processes.append(pid)
        return pid
    }

    /// The executable and argv of a program, behind `setpriv` to the owner when asked.
    private func command(_ program: String, _ arguments: [String], asOwner: Bool) -> (String, [String]) {
        let path = program.hasPrefix("/") ? program : ExternalTool.find(program) ?? program
        guard asOwner, let owner = parts.owner else { return (path, [path] + arguments) }
        let setpriv = ExternalTool.find("setpriv") ?? "/usr/bin/setpriv"
        return (setpriv, [setpriv, "--reuid=\(owner.uid)", "--regid=\(owner.gid)", "--clear-groups", "--",
                          path] + arguments)
    }

    /// How `pid`, started here, is doing, in words: "still runs", "exited with status 1"… (reaps it when ended).
    func describe(_ pid: pid_t) -> String {
        var status: Int32 = 0
        switch waitpid(pid, &status, WNOHANG) {
        case 0: return "still runs"
        case pid where status & 0x7f == 0: return "exited with status \((status >> 8) & 0xff)"
        case pid: return "was ended by signal \(status & 0x7f)"
        default: return "has ended (\(String(cString: strerror(errno))))"
        }
    }

    /// Whether `pid`, started here, still runs (reaps it when it has ended).
    func isRunning(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        return waitpid(pid, &status, WNOHANG) == 0
    }

    /// Stops one program started here by its pid and reaps it: SIGTERM, SIGKILL after 3 s.
    func end(_ pid: pid_t) {
        guard pid > 0, isRunning(pid) else { return }
        kill(pid, SIGTERM)
        if (try? Waiting.until("\(pid) to end", timeout: 3) { !isRunning(pid) }) != nil { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    /// Stops every program started here, by its pid, last started first; then what they left in the group (by
    /// the group's id); and removes the files.
    func stop() {
        processes.reversed().forEach(end)
        if group > 0 {
            kill(-group, SIGTERM)
            try? Waiting.until("process group \(group) to end", timeout: 3) { kill(-group, 0) != 0 }
            if kill(-group, 0) == 0 { kill(-group, SIGKILL) }
        }
        processes = []
        group = 0
        try? FileManager.default.removeItem(at: root)
    }
}
