import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// A click waiter started by a run under systemd outlives the run in the service's control group, and every later
/// start of `nudge.service` made the manager warn "Found left-over process … (nudge) in control group while
/// starting unit. Ignoring." for it and for its `channel-exec` parent: two warnings per notification with buttons,
/// every run. So the waiter moves itself, and that parent, into `nudge-waiters.service`, a transient unit that holds
/// every waiter and stays (docs/systemd.md, "The journal"). It is a service, not a scope, because a service takes
/// `LogLevelMax=`: the manager's "Started" line for it stays out of the journal, as a scope's could not.
enum WaiterUnit {
    static let name = "nudge-waiters.service"
    /// How long a waiter tries to reach the unit: the manager answers at once unless it is busy.
    private static let timeout = 5.0

    /// Leaves a `nudge*.service` for `nudge-waiters.service`; does nothing outside one (cron, a terminal). When the
    /// manager does not take it, the waiter works the same and says why on `console` (the service's journal
    /// stream), beside the manager's warnings that then come back.
    static func leaveService(_ console: Console) {
        guard let group = controlGroup(of: getpid()), isNudgeService(group) else { return }
        var pids = [getpid()]
        let parent = getppid()
        if parent > 1, controlGroup(of: parent) == group { pids.insert(parent, at: 0) }
        do {
            try move(pids, into: UserManager.connect())
        } catch {
            console.warning("nudge: the click waiter \(getpid()) stays in \(FilePath.lastComponent(of: group)), "
                + "which will call it a left-over process: \(name) did not take it (\(error))")
        }
    }

    /// Attaches `pids` to the unit, starting it first where none is loaded. Two waiters may start it at once (one
    /// gets `UnitExists`), and one that has just been stopped stays loaded, refusing processes, until the manager
    /// collects it: both are waited out.
    private static func move(_ pids: [pid_t], into manager: UserManager) throws {
        let deadline = Deadline(after: timeout)
        var failure: Error = BusConnection.Failure.timedOut("\(name) to take the click waiter")
        repeat {
            do {
                return try manager.attach(pids, to: name)
            } catch BusConnection.Failure.error(SystemdManagerBus.noSuchUnit, _) {
                do {
                    try manager.startTransientUnit(name, properties: properties())
                    continue
                } catch BusConnection.Failure.error(SystemdManagerBus.unitExists, let message) {
                    // Another waiter started it a moment ago, or the stopped one is not yet collected.
                    failure = BusConnection.Failure.error(name: SystemdManagerBus.unitExists, text: message)
                }
            } catch {
                // Still starting, or stopping: it takes processes only while active.
                failure = error
            }
            usleep(20_000)
        } while !deadline.hasPassed
        throw failure
    }

    /// A oneshot that stays active after its command (nudge's own `--version`, its output dropped) and takes
    /// processes from others (`Delegate=`); `LogLevelMax=notice` keeps the manager's lines about it at info out.
    private static func properties() -> [(String, DBusValue)] {
        let nudge = DesktopChannel.executablePath() ?? "/proc/self/exe"
        return [
            ("Description", .string("nudge click waiters")),
            ("Type", .string("oneshot")),
            ("RemainAfterExit", .boolean(true)),
            ("ExecStart", .array(element: "(sasb)", [
                .structure([.string(nudge), .array(element: "s", [.string(nudge), .string("--version")]),
                            .boolean(false)]),
            ])),
            ("StandardOutput", .string("null")),
            ("Delegate", .boolean(true)),
            ("LogLevelMax", .int32(5)),
            ("CollectMode", .string("inactive-or-failed")),
        ]
    }

    /// The cgroup v2 path of `pid` ("/user.slice/…/app.slice/nudge.service"), nil when it cannot be read.
    static func controlGroup(of pid: pid_t) -> String? {
        guard case .success(let bytes) = PosixFile.contents(of: "/proc/\(pid)/cgroup"),
              let text = String(validating: bytes, as: UTF8.self) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("0::") { return String(line.dropFirst(3)) }
        return nil
    }

    /// Whether the control group is one of nudge's services (`nudge.service`, `nudge-alarm.service`), not the
    /// waiters' own.
    static func isNudgeService(_ group: String) -> Bool {
        let unit = FilePath.lastComponent(of: group)
        return unit.hasPrefix("nudge") && unit.hasSuffix(".service") && unit != name
    }
}
