import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// A program run with `input` on its standard input and both its outputs read back, within a deadline: curl(1)
/// for the calendar (its request on stdin, so that no password is ever in an argument list that `ps` shows) and
/// the password command. The outputs are read while the input is written, so neither side can fill a pipe and
/// wait for the other.
struct CapturedRun {
    /// How the program ended.
    enum Ending: Equatable {
        case exited(Int32)
        case killedBySignal(Int32)
        /// The deadline passed: the program's process group was killed.
        case timedOut
        /// It could not be started (errno).
        case notStarted(Int32)
    }

    var ending: Ending
    var stdout: [UInt8] = []
    var stderr: [UInt8] = []

    /// Runs `arguments` in a process group of its own until it exits or `deadline` passes.
    init(_ arguments: [String], input: [UInt8], environment: [String: String], deadline: Deadline) {
        let pipes = (0..<3).compactMap { _ in ChildProcess.pipe() }
        guard pipes.count == 3 else {
            ending = .notStarted(errno)
            pipes.forEach { close($0.read); close($0.write) }
            return
        }
        let (toChild, output, errors) = (pipes[0], pipes[1], pipes[2])
        // Written only as far as the pipe takes at once: a full pipe never blocks past the deadline.
        _ = fcntl(toChild.write, F_SETFL, fcntl(toChild.write, F_GETFL) | O_NONBLOCK)
        let spawned = ChildProcess.spawn(arguments, environment: environment, stdin: toChild.read,
                                         stdout: output.write, stderr: errors.write)
        for end in [toChild.read, output.write, errors.write] { close(end) }
        guard case .success(let pid) = spawned else {
            for end in [toChild.write, output.read, errors.read] { close(end) }
            if case .failure(let error) = spawned { ending = .notStarted(error.code) } else { ending = .notStarted(0) }
            return
        }
        ending = .exited(0)
        var status: Int32 = 0
        let finished = exchange(input: toChild.write, pending: input[...], output: output.read,
                                errors: errors.read, child: pid, status: &status, deadline: deadline)
        if finished == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
        }
        if finished != true { while waitpid(pid, &status, 0) < 0 && errno == EINTR {} }
        let signal = status & 0x7f
        ending = finished == nil ? .timedOut : signal != 0 ? .killedBySignal(signal) : .exited((status >> 8) & 0xff)
    }

    /// Writes `pending` to `input` and reads `output` and `errors` to their ends, sleeping in poll(2) between;
    /// nil when the deadline passed first, true when `child` was reaped meanwhile (its `status` set): a program
    /// that exited while a process it left keeps its output open is done, with what it wrote. Closes the three
    /// descriptors.
    private mutating func exchange(input: Int32, pending: ArraySlice<UInt8>, output: Int32, errors: Int32,
                                   child: pid_t, status: inout Int32, deadline: Deadline) -> Bool? {
        var pending = pending
        var writing: Int32 = input
        if pending.isEmpty { close(input); writing = -1 }
        var open: [Int32] = [output, errors]
        defer {
            if writing >= 0 { close(writing) }
            open.forEach { close($0) }
        }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        var exited = false
        while !open.isEmpty || writing >= 0 {
            var watched = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            if writing >= 0 { watched.append(pollfd(fd: writing, events: Int16(POLLOUT), revents: 0)) }
            guard !deadline.hasPassed else { return nil }
            // Once the child is gone, only what is already in the pipes is read.
            let wait = exited ? 0 : Int32(min(deadline.remaining * 1000 + 1, 100))
            let ready = poll(&watched, nfds_t(watched.count), wait)
            if ready < 0 && errno != EINTR { return nil }
            if ready == 0 && exited { return true }
            if !exited && waitpid(child, &status, WNOHANG) == child { exited = true }
            for entry in watched where entry.revents != 0 {
                if entry.fd == writing {
                    let written = pending.withUnsafeBytes { write(writing, $0.baseAddress, $0.count) }
                    if written > 0 { pending = pending.dropFirst(written) }
                    if written < 0 && errno != EINTR && errno != EAGAIN || pending.isEmpty {
                        close(writing)
                        writing = -1
                    }
                    continue
                }
                let count = read(entry.fd, &buffer, buffer.count)
                if count > 0 {
                    if entry.fd == output { stdout += buffer[..<count] } else { stderr += buffer[..<count] }
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    close(entry.fd)
                    open.removeAll { $0 == entry.fd }
                }
            }
        }
        return exited
    }
}
