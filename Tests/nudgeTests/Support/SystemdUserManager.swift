import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real systemd user manager (`systemd --user`) of the test's own, on a machine whose PID 1 is not systemd.
///
/// It runs in a mount namespace of its own (`unshare --mount`), where a tmpfs on `/run/systemd` holds an empty
/// `system/` directory (what tells systemd programs that systemd runs the machine) and `/sys/fs/cgroup` is a cgroup
/// v2 hierarchy: the machine's own, or its `unified` one bound there on a machine with the hybrid layout. The
/// manager starts in a new cgroup of its own under that hierarchy, as `user@.service` would start it in its
/// delegated one, and puts each unit in a cgroup below. `XDG_RUNTIME_DIR` is a temporary directory: the private
/// socket `systemctl --user` talks to lies there. It runs as the test's own user (root: the namespace and the
/// cgroup need it), the owner of the desktop session's bus: a session bus admits no other user, so the services
/// of a separate test user could not reach the notification server. `systemctl` runs inside the namespace
/// (`nsenter`): outside it, where no `/run/systemd/system` exists, it would only edit files.
/// With `journal: true` the namespace also has a `systemd-journald` of its own, which the manager logs to: a manager
/// that logs to a console shows nothing of what it would write to a journal (docs/promises.md, a quiet journal).
/// Every process is stopped by its pid: `systemctl --user exit`, then the manager's pid, then journald, then
/// whatever is left in the manager's cgroups; the cgroups are removed.
final class SystemdUserManager {
    static let manager = "/lib/systemd/systemd"
    static let journald = "/lib/systemd/systemd-journald"

    /// The manager's `XDG_RUNTIME_DIR`.
    let runtimeDirectory: URL
    /// The manager's cgroup, as `/proc/PID/cgroup` names it (`/nudge-systemd-…`, or with a journal
    /// `/nudge-systemd-….slice/user@0.service`).
    let cgroup: String
    /// Where the test sees that cgroup in its own mount namespace.
    let cgroupDirectory: URL
    /// The cgroup the test made for the manager: `cgroupDirectory` itself, or with a journal its parent slice.
    private let cgroupTop: URL
    /// Whether the namespace has a journald of its own, which the manager and its services log to.
    let hasJournal: Bool
    /// Whether `/etc` is the namespace's own overlay.
    let hasPrivateEtc: Bool
    /// The test's own directory for this manager: its runtime directory, pid file and logs.
    let root: URL
    private let log: URL
    private var unshare: Process?
    /// `systemd-journald`, started by `startJournald` and stopped by `stopJournald`.
    var journaldProcess: Process?
    /// The pid of `systemd --user`.
    private(set) var pid: pid_t = 0

    /// Starts a user manager with `environment` (HOME and the rest of a login's environment; XDG_RUNTIME_DIR is
    /// set here), with a journald of its own when `journal`, or skips the test (fails it under CI) with the reason
    /// when this machine cannot run one.
    /// With `privateEtc`, `/etc` in the namespace is an overlay of the machine's, so a test can change
    /// `/etc/localtime` for this manager alone (a zone change, docs/systemd.md).
    init(environment: [String: String], journal: Bool = false, privateEtc: Bool = false) throws {
        guard getuid() == 0 else {
            throw RealPart.missing("a systemd user manager needs root here, for a mount namespace and a cgroup")
        }
        guard FileManager.default.isExecutableFile(atPath: Self.manager) else {
            throw RealPart.missing("\(Self.manager) is not installed (Debian package systemd; .ci/run installs it)")
        }
        let unsharePath = try ExternalTool.require("unshare", package: "util-linux")
        _ = try ExternalTool.require("nsenter", package: "util-linux")
        _ = try ExternalTool.require("systemctl", package: "systemd")
        if journal {
            guard FileManager.default.isExecutableFile(atPath: Self.journald) else {
                throw RealPart.missing(
                    "\(Self.journald) is not installed (Debian package systemd; .ci/run installs it)")
            }
            _ = try ExternalTool.require("journalctl", package: "systemd")
        }
        let (hierarchy, bindUnified) = try Self.cgroupHierarchy()
        let name = "nudge-systemd-\(UUID().uuidString)"
        // journald reads a unit's name from its sender's cgroup, and files it as _SYSTEMD_USER_UNIT (what
        // `journalctl --user-unit` and `--user -u` look for) only below a slice's `user@UID.service`, as a login has.
        let top = journal ? name + ".slice" : name
        cgroup = journal ? "/\(top)/user@\(getuid()).service" : "/" + name
        cgroupTop = URL(fileURLWithPath: hierarchy).appendingPathComponent(top)
        cgroupDirectory = URL(fileURLWithPath: hierarchy + cgroup)
        hasJournal = journal
        hasPrivateEtc = privateEtc
        root = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        runtimeDirectory = root.appendingPathComponent("run")
        log = root.appendingPathComponent("manager.log")
        try FileManager.default.createDirectory(at: runtimeDirectory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        for directory in Set([cgroupTop.path, cgroupDirectory.path]).sorted() {
            guard mkdir(directory, 0o755) == 0 else {
                let reason = String(cString: strerror(errno))
                rmdir(cgroupTop.path)
                try? FileManager.default.removeItem(at: root)
                throw RealPart.missing("cannot create the cgroup \(directory): \(reason)")
            }
        }
        do {
            try start(unsharePath, bindUnified: bindUnified, environment: environment)
        } catch {
            stop()
            throw error
        }
    }

    /// The cgroup v2 hierarchy as mounted here, and whether it is the `unified` one of the hybrid layout.
    private static func cgroupHierarchy() throws -> (String, Bool) {
        let mounts = ((try? String(contentsOfFile: "/proc/self/mounts")) ?? "").split(separator: "\n")
            .map { $0.split(separator: " ").map(String.init) }
        for (path, unified) in [("/sys/fs/cgroup", false), ("/sys/fs/cgroup/unified", true)] {
            // The last mount on a path is the one in effect.
            if mounts.last(where: { $0.count > 2 && $0[1] == path })?[2] == "cgroup2" { return (path, unified) }
        }
        throw RealPart.missing("no cgroup v2 hierarchy at /sys/fs/cgroup or /sys/fs/cgroup/unified")
    }

    /// With a journal, the shell waits for journald's socket before it becomes the manager, which connects to the
    /// journal at its start; the test starts journald in this namespace once the pid file names it.
    private func start(_ unsharePath: String, bindUnified: Bool, environment: [String: String]) throws {
        let pidFile = root.appendingPathComponent("manager.pid")
        let script = """
            [ -d /run/systemd ] || mkdir -p /run/systemd
            mount -t tmpfs -o mode=0755 nudge-systemd /run/systemd
            mkdir /run/systemd/system
            \(bindUnified ? "mount --bind /sys/fs/cgroup/unified /sys/fs/cgroup" : ":")
            \(hasJournal ? Self.journalMounts : ":")
            \(hasPrivateEtc ? privateEtcMounts : ":")
            echo $$ > '/sys/fs/cgroup\(cgroup)/cgroup.procs'
            echo $$ > '\(pidFile.path)'
            \(hasJournal ? "until [ -S /run/systemd/journal/socket ]; do sleep 0.01; done" : ":")
            exec \(Self.manager) --user\(hasJournal ? " --log-target=journal --log-level=info" : "")
            """
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let output = try FileHandle(forWritingTo: log)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: unsharePath)
        process.arguments = ["--mount", "--propagation", "private", "--fork", "/bin/sh", "-euc", script]
        var managerEnvironment = environment
        managerEnvironment["XDG_RUNTIME_DIR"] = runtimeDirectory.path
        process.environment = managerEnvironment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = output
        try process.run()
        unshare = process
        try Waiting.until("the user manager's pid", timeout: 20) {
            guard process.isRunning else { throw Failed(description: "the user manager did not start:\n" + managerLog()) }
            return ((try? String(contentsOf: pidFile)) ?? "").hasSuffix("\n")
        }
        pid = pid_t(((try? String(contentsOf: pidFile)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        if hasJournal { try startJournald() }
        var state = ""
        do {
            try Waiting.until("the user manager to finish starting up", timeout: 60) {
                guard process.isRunning else { throw Failed(description: "the user manager ended:\n" + managerLog()) }
                state = try property("SystemState")
                return state == "running" || state == "degraded"
            }
        } catch let error as Waiting.TimedOut {
            let jobs = (try? systemctl(["list-jobs"]).stdout) ?? ""
            throw Failed(description: "\(error) (SystemState: \(state)); jobs:\n\(jobs)\n\(managerLog())")
        }
    }

    /// An overlay on `/etc` whose writable layer is a tmpfs under the test's directory: the manager watches
    /// `/etc/localtime` from its start, so this comes before it.
    private var privateEtcMounts: String {
        let layer = root.appendingPathComponent("etc-layer").path
        return """
            mkdir -p '\(layer)'
            mount -t tmpfs nudge-etc '\(layer)'
            mkdir '\(layer)/upper' '\(layer)/work'
            mount -t overlay nudge-etc -o 'lowerdir=/etc,upperdir=\(layer)/upper,workdir=\(layer)/work' /etc
            """
    }

    struct Failed: Error, CustomStringConvertible {
        let description: String
    }

    /// What the manager printed to its standard error (everything when it has no journal, else only what it says
    /// before it connects to it), and journald's own diagnostics.
    func managerLog() -> String {
        let journald = hasJournal ? "--- systemd-journald ---\n" + ((try? String(contentsOf: journaldLog)) ?? "") : ""
        return ((try? String(contentsOf: log)) ?? "") + journald
    }

    /// `systemctl --user ARGUMENTS`, talking to this manager.
    func systemctl(_ arguments: [String]) throws -> ExternalTool.Result {
        try run([try ExternalTool.require("systemctl", package: "systemd"), "--user", "--no-pager"] + arguments,
                environment: ["XDG_RUNTIME_DIR": runtimeDirectory.path, "SYSTEMD_COLORS": "0"])
    }

    /// Runs `command` in the manager's mount namespace with exactly `environment`: there `/run/systemd/system`
    /// exists, so `systemctl` acts on the running manager instead of only editing files as it does where systemd
    /// does not run the machine.
    func run(_ command: [String], environment: [String: String],
             workingDirectory: URL? = nil) throws -> ExternalTool.Result {
        // Entering a mount namespace moves the working directory to its root: --wd names it again.
        let directory = workingDirectory.map { ["--wd=" + $0.path] } ?? []
        return try ExternalTool.run(try ExternalTool.require("nsenter", package: "util-linux"),
                                    ["--target", String(pid), "--mount"] + directory + ["--"] + command,
                                    exactEnvironment: environment, timeout: 30)
    }

    /// One property of a unit (`systemctl --user show -P`), or of the manager when `unit` is nil.
    func property(_ name: String, of unit: String? = nil) throws -> String {
        try systemctl(["show", "-P", name] + (unit.map { [$0] } ?? [])).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The pids in the cgroup of `unit` (`ControlGroup` below the manager's cgroup).
    func pids(inCgroupOf unit: String) throws -> [pid_t] {
        let group = try property("ControlGroup", of: unit)
        guard group.hasPrefix(cgroup + "/") else { return [] }
        let procs = cgroupDirectory.appendingPathComponent(String(group.dropFirst(cgroup.count + 1)))
            .appendingPathComponent("cgroup.procs")
        return ((try? String(contentsOf: procs)) ?? "").split(separator: "\n").compactMap { pid_t($0) }
    }

    /// Stops the manager by its pid and every process left in its cgroups by theirs, and removes the cgroups.
    func stop() {
        if let unshare, unshare.isRunning {
            _ = try? systemctl(["exit"])
            try? Waiting.until("the user manager to exit", timeout: 15) {
                pid <= 0 || kill(pid, 0) != 0 || !unshare.isRunning
            }
            if pid > 0 && unshare.isRunning { kill(pid, SIGKILL) }
            if unshare.isRunning { kill(unshare.processIdentifier, SIGKILL) }
            unshare.waitUntilExit()
        }
        unshare = nil
        stopJournald()
        removeCgroups()
        try? FileManager.default.removeItem(at: root)
    }

    /// Kills what is left in the manager's cgroups (a unit's left-over process), by pid, and removes them deepest first.
    private func removeCgroups() {
        var directories: [String] = []
        try? Waiting.until("the manager's cgroups to empty", timeout: 10) {
            directories = Self.subdirectories(of: cgroupTop.path)
            let left = directories.flatMap { directory in
                ((try? String(contentsOfFile: directory + "/cgroup.procs")) ?? "").split(separator: "\n")
                    .compactMap { pid_t($0) }
            }
            for pid in left { kill(pid, SIGKILL) }
            return left.isEmpty
        }
        for directory in directories.reversed() { rmdir(directory) }
    }

    /// `path` and every directory below it, parents before children.
    private static func subdirectories(of path: String) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return []
        }
        let children = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().flatMap { name in
            subdirectories(of: path + "/" + name)
        }
        return [path] + children
    }
}
