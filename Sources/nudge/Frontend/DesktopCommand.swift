import Foundation
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The third channel (SPEC §7): runs `deliver.command` for a delivery, without a shell, with the `NUDGE_*`
/// environment, and gives it 10 seconds.
struct DesktopCommand {
    static let timeout: Double = 10

    let template: [String]

    /// Runs the command; nil when it exited 0, else what went wrong.
    func run(_ delivery: Delivery) -> String? {
        let arguments = CommandTemplate.arguments(template, for: delivery)
        guard let program = arguments.first else { return "deliver.command is empty" }
        var environment = ProcessInfo.processInfo.environment
        for (name, value) in CommandTemplate.environment(for: delivery) { environment[name] = value }
        var pid: pid_t = 0
        let code = spawn(arguments, environment: environment, pid: &pid)
        guard code == 0 else { return "cannot start \(program): \(String(cString: strerror(code)))" }
        return wait(for: pid, program: program)
    }

    /// posix_spawnp: PATH lookup like a shell would do, but no shell. Standard input is /dev/null and the
    /// command's standard output goes to nudge's standard error, so `--json` output stays clean.
    private func spawn(_ arguments: [String], environment: [String: String], pid: inout pid_t) -> Int32 {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, STDERR_FILENO, STDOUT_FILENO)
        // Its own process group, so a timeout stops the command's children too (a script's `sleep`).
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
    }

    private func wait(for pid: pid_t, program: String) -> String? {
        let deadline = Date().addingTimeInterval(Self.timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return "lost track of \(program): \(String(cString: strerror(errno)))" }
            if Date() >= deadline {
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return "\(program) did not finish within \(Int(Self.timeout)) s and was stopped"
            }
            usleep(5_000)
        }
        let signal = status & 0x7f
        if signal != 0 { return "\(program) was killed by signal \(signal)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "\(program) exited with status \(code)"
    }
}
