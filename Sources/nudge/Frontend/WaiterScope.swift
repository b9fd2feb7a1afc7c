import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// A click waiter started by a run under systemd outlives the run in the service's control group, and every later
/// start of `nudge.service` made the manager warn "Found left-over process … (nudge) in control group while
/// starting unit. Ignoring." for it and for its `channel-exec` parent: two warnings per notification with buttons,
/// every run (docs/systemd.md, "The journal"). So the waiter moves itself, and that parent, into a transient scope
/// of its own, `nudge-waiter-PID.scope`, which ends when they do.
enum WaiterScope {
    /// Leaves a `nudge*.service` for a scope; does nothing outside one (cron, a terminal). When the manager does
    /// not make the scope, the waiter works the same and says why on `console` (the service's journal stream),
    /// beside the manager's warnings that then come back.
    static func leaveService(_ console: Console) {
        guard let group = controlGroup(of: getpid()), isNudgeService(group) else { return }
        var pids = [getpid()]
        let parent = getppid()
        if parent > 1, controlGroup(of: parent) == group { pids.insert(parent, at: 0) }
        do {
            try UserManager.connect().startScope("nudge-waiter-\(getpid()).scope", pids: pids,
                                                 description: "nudge click waiter")
        } catch {
            console.warning("nudge: the click waiter \(getpid()) stays in \(FilePath.lastComponent(of: group)), "
                + "which will call it a left-over process: no scope of its own (\(error))")
        }
    }

    /// The cgroup v2 path of `pid` ("/user.slice/…/app.slice/nudge.service"), nil when it cannot be read.
    static func controlGroup(of pid: pid_t) -> String? {
        guard case .success(let bytes) = DataDirectory.contents(of: "/proc/\(pid)/cgroup"),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") { return String(line.dropFirst(3)) }
        return nil
    }

    /// Whether the control group is one of nudge's services (`nudge.service`, `nudge-alarm.service`).
    static func isNudgeService(_ group: String) -> Bool {
        let unit = FilePath.lastComponent(of: group)
        return unit.hasPrefix("nudge") && unit.hasSuffix(".service")
    }
}
