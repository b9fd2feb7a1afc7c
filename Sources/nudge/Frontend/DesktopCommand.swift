import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// The command channel (docs/files.md): runs `deliver.command` for a delivery, without a shell, with the `NUDGE_*`
/// environment, and gives it 10 seconds.
struct DesktopCommand {
    static let timeout: Double = 10

    let template: [String]
    /// The environment the command starts with: nudge's own, with the session bus filled in when cron left it
    /// out (docs/design.md, "The desktop").
    let environment: [String: String]

    /// Runs the command; nil when it exited 0, else what went wrong. The command's standard output goes to
    /// nudge's standard error, so `--json` output stays clean. `wrap` may put another program in front (the
    /// run starts it through `nudge channel-exec`, which notes the start).
    func run(_ delivery: Delivery, wrap: ([String], TimeInterval?) -> [String] = { arguments, _ in arguments })
        -> String? {
        let arguments = CommandTemplate.arguments(template, for: delivery)
        guard let program = arguments.first else { return "deliver.command is empty" }
        var environment = environment
        for (name, value) in CommandTemplate.environment(for: delivery) { environment[name] = value }
        guard ChildProcess.find(program, path: environment["PATH"]) != nil else {
            return "cannot start \(program): \(String(cString: strerror(ENOENT)))"
        }
        switch ChildProcess.spawn(wrap(arguments, Self.timeout), environment: environment, stdout: STDERR_FILENO, stderr: STDERR_FILENO) {
        case .failure(let error):
            return "cannot start \(program): \(error.reason)"
        case .success(let pid):
            return ChildProcess.wait(for: pid, program: program, timeout: Self.timeout)
        }
    }
}
