import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Starting programs without a shell (posix_spawnp: a PATH lookup, as a shell would do, and nothing else),
/// waiting for them with a deadline, and finding them on PATH.
enum ChildProcess {
    /// How a child is placed: in a process group of its own (a timeout then stops its children too), or in a
    /// session of its own (detached: a waiter that outlives the run and is not stopped with cron's job).
    enum Placement {
        case ownGroup
        case ownSession
        /// In nudge's own process group (`nudge channel-exec` runs its program so: a kill of the group stops both).
        case sameGroup
    }

    /// glibc's POSIX_SPAWN_SETSID (2.26 and later), which the Glibc module does not export.
    private static let spawnSetSID: Int16 = 0x80

    /// Starts `arguments` with standard input from `stdin` (nil: /dev/null) and standard output and error on the
    /// given descriptors. Returns the pid, or the errno of a failed start.
    static func spawn(_ arguments: [String], environment: [String: String], stdin: Int32? = nil, stdout: Int32,
                      stderr: Int32, placement: Placement = .ownGroup) -> Result<pid_t, PosixFile.ReadError> {
        closeInheritedDescriptorsOnExec()
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        if let stdin {
            posix_spawn_file_actions_adddup2(&actions, stdin, STDIN_FILENO)
        } else {
            posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        }
        posix_spawn_file_actions_adddup2(&actions, stdout, STDOUT_FILENO)
        posix_spawn_file_actions_adddup2(&actions, stderr, STDERR_FILENO)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // nudge ignores SIGPIPE (a closed stdout is an error it names: `NudgeCLI.main`); an ignored signal stays
        // ignored across exec, so a program it starts gets the default back.
        var defaulted = sigset_t()
        sigemptyset(&defaulted)
        sigaddset(&defaulted, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaulted)
        var flags = Int16(POSIX_SPAWN_SETSIGDEF)
        switch placement {
        case .ownGroup:
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
            posix_spawnattr_setpgroup(&attributes, 0)
        case .ownSession:
            flags |= spawnSetSID
        case .sameGroup:
            break
        }
        posix_spawnattr_setflags(&attributes, flags)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        return code == 0 ? .success(pid) : .failure(PosixFile.ReadError(code: code))
    }

    /// Marks every descriptor above standard error close-on-exec, so a child gets only the three nudge hands it.
    /// Descriptors nudge inherited from whoever started it (cron's pipes, a test harness's socket) would
    /// otherwise reach a detached waiter and keep them open for as long as it waits: cron would see the job as
    /// still running.
    static func closeInheritedDescriptorsOnExec() {
        // Listed first, then changed: the listing's own descriptor is among them and is gone once it is read.
        let descriptors = PosixFile.names(in: "/proc/self/fd").compactMap(Int32.init).filter { $0 > STDERR_FILENO }
        for descriptor in descriptors {
            let flags = fcntl(descriptor, F_GETFD)
            if flags >= 0 && flags & FD_CLOEXEC == 0 { _ = fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) }
        }
    }

    /// Waits for `pid` up to `timeout` seconds (a `Deadline`: a step of the wall clock does not stop it early);
    /// past it the child's process group is killed. Returns nil when it exited 0, else what went wrong in words.
    static func wait(for pid: pid_t, program: String, timeout: Double) -> String? {
        let deadline = Deadline(after: timeout)
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid { break }
            if result < 0 && errno != EINTR { return "lost track of \(program): \(String(cString: strerror(errno)))" }
            if deadline.hasPassed {
                kill(-pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                return "\(program) did not finish within \(Int(timeout)) s and was stopped"
            }
            usleep(5_000)
        }
        return describe(status: status, program: program)
    }

    /// "exited with status 1", "was killed by signal 9", or nil for a clean exit.
    static func describe(status: Int32, program: String) -> String? {
        let signal = status & 0x7f
        if signal != 0 { return "\(program) was killed by signal \(signal)" }
        let code = (status >> 8) & 0xff
        return code == 0 ? nil : "\(program) exited with status \(code)"
    }

    /// The full path of `program` on `path` (a PATH value), or nil when it is not installed there.
    static func find(_ program: String, path: String?) -> String? {
        if program.contains("/") { return access(program, X_OK) == 0 ? program : nil }
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// A pipe whose ends are closed in every program nudge starts, except where handed over explicitly.
    static func pipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [0, 0]
        // pipe2 is not exported by the Glibc module; nudge starts no threads that spawn, so no race here.
        guard Glibc.pipe(&ends) == 0 else { return nil }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return (ends[0], ends[1])
    }
}
