import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// One connection to the session bus over its unix socket, written with the C library alone (docs/desktop.md): it
/// authenticates with the process's uid, says Hello, and then sends and receives messages. The click waiter
/// holds its notification on one such connection, which is what GNOME Shell asks of whoever closes it.
final class BusConnection {
    enum Failure: Error, CustomStringConvertible {
        /// No session bus at all, in words (`SessionBus.MissingBus`).
        case noBus(String)
        case address(String)
        case system(String, Int32)
        case refused(String)
        case closed
        case timedOut(String)
        case error(name: String, text: String)

        var description: String {
            switch self {
            case .noBus(let text): return text
            case .address(let address): return "cannot read the session bus address \(address)"
            case .system(let what, let code): return "\(what): \(String(cString: strerror(code)))"
            case .refused(let line): return "the session bus refused nudge: \(line)"
            case .closed: return "the session bus closed the connection"
            case .timedOut(let what): return "no answer to \(what) from the session bus"
            case .error(let name, let text): return text.isEmpty ? name : "\(name): \(text)"
            }
        }
    }

    private let socket: Int32
    private var serial: UInt32 = 0
    private var received: [UInt8] = []
    /// Messages that came while waiting for a reply, in order.
    private var queued: [DBusMessage] = []
    private(set) var isOpen = true
    /// The connection's unique name, from Hello.
    private(set) var uniqueName = ""
    /// Asked after a signal interrupted a wait: true ends the wait as if its deadline had come.
    var isInterrupted: () -> Bool = { false }
    /// Another descriptor whose readiness ends a wait for a message (the waiter's `DirectoryChanges`): `next` then
    /// returns nil and `takeWoken()` says so. One `poll` sleeps on both.
    var wakeDescriptor: Int32?
    private var woken = false

    private init(socket: Int32) { self.socket = socket }

    deinit { close(socket) }

    /// Connects, authenticates and says Hello within `timeout` seconds. A peer that is no bus (the systemd
    /// manager's private socket) takes calls right after authentication: `hello` false skips Hello.
    static func open(address: String, timeout: Double, hello: Bool = true) -> Result<BusConnection, Failure> {
        guard let parsed = BusAddress.parse(address) else { return .failure(.address(address)) }
        let descriptor = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failure(.system("cannot make a socket", errno)) }
        let connection = BusConnection(socket: descriptor)
        var place = sockaddr_un()
        place.sun_family = sa_family_t(AF_UNIX)
        let name: [UInt8]
        switch parsed {
        case .path(let path): name = Array(path.utf8)
        case .abstract(let abstract): name = [0] + Array(abstract.utf8)
        }
        guard name.count < MemoryLayout.size(ofValue: place.sun_path) else { return .failure(.address(address)) }
        withUnsafeMutableBytes(of: &place.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count + (name.first == 0 ? 0 : 1))
        let connected = withUnsafePointer(to: &place) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, length) }
        }
        guard connected == 0 else { return .failure(.system("cannot connect to the session bus at \(address)", errno)) }
        let deadline = Deadline(after: timeout)
        do {
            // systemd's private socket must read BEGIN before the first message arrives: given both in one
            // read, it leaves the message unanswered. As sd-bus does, BEGIN goes with the request there.
            try connection.writeAll(BusAuthentication.request(uid: getuid()) + (hello ? [] : BusAuthentication.begin))
            let line = try connection.readAuthenticationLine(until: deadline)
            guard case .accepted = BusAuthentication.answer(line) else { return .failure(.refused(line)) }
            if hello {
                try connection.writeAll(BusAuthentication.begin)
                let reply = try connection.call(NotificationsBus.hello(), until: deadline)
                connection.uniqueName = reply.body.first?.string ?? ""
            }
        } catch let failure as Failure {
            return .failure(failure)
        } catch {
            return .failure(.closed)
        }
        return .success(connection)
    }

    /// The pid of the process at the other end of the socket, as the kernel saw it connect (`SO_PEERCRED`).
    func peerPID() -> pid_t? {
        // struct ucred { pid_t pid; uid_t uid; gid_t gid; }, which Glibc's module leaves out (_GNU_SOURCE).
        var credentials: [Int32] = [0, 0, 0]
        var length = socklen_t(MemoryLayout<Int32>.size * credentials.count)
        guard getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) == 0 else { return nil }
        return credentials[0]
    }

    /// Sends a message with the next serial; returns the serial.
    @discardableResult
    func send(_ message: DBusMessage) throws -> UInt32 {
        var numbered = message
        serial += 1
        numbered.serial = serial
        try writeAll(numbered.encoded())
        return serial
    }

    /// Sends a call and waits for its reply until `deadline`; an error reply is thrown. Signals that arrive
    /// meanwhile are kept for `next`.
    func call(_ message: DBusMessage, until deadline: Deadline) throws -> DBusMessage {
        let number = try send(message)
        var held: [DBusMessage] = []
        defer { queued = held + queued }
        while true {
            guard let reply = try receive(until: deadline) else {
                throw Failure.timedOut(message.member ?? "a call")
            }
            guard reply.replySerial == number, reply.kind == .methodReturn || reply.kind == .error else {
                held.append(reply)
                continue
            }
            if reply.kind == .error {
                throw Failure.error(name: reply.errorName ?? "error", text: reply.body.first?.string ?? "")
            }
            return reply
        }
    }

    /// The next message, held or received, or nil at the deadline; throws `.closed` when the bus went away.
    /// Whether the last wait ended because `wakeDescriptor` was ready; reading it resets it.
    func takeWoken() -> Bool {
        defer { woken = false }
        return woken
    }

    func next(until deadline: Deadline) throws -> DBusMessage? {
        if !queued.isEmpty { return queued.removeFirst() }
        return try receive(until: deadline)
    }

    /// Reads from the socket until a whole message is there or the deadline passes. Messages nudge cannot read
    /// (types it does not use) are skipped.
    private func receive(until deadline: Deadline) throws -> DBusMessage? {
        while true {
            if let length = DBusMessage.frameLength(received[...]), received.count >= length {
                let frame = Array(received[..<length])
                received.removeFirst(length)
                if let message = try? DBusMessage.decode(frame) { return message }
                continue
            }
            guard try fill(until: deadline) else { return nil }
        }
    }

    /// Waits for bytes and appends them; false at the deadline.
    private func fill(until deadline: Deadline) throws -> Bool {
        guard isOpen else { throw Failure.closed }
        if isInterrupted() { return false }
        let left = deadline.remaining
        guard left > 0 else { return false }
        var pollers = [pollfd(fd: socket, events: Int16(POLLIN), revents: 0)]
        if let wakeDescriptor { pollers.append(pollfd(fd: wakeDescriptor, events: Int16(POLLIN), revents: 0)) }
        // Capped at an hour: a wait asks for no wakeup of its own before its deadline (an idle waiter sleeps).
        let ready = poll(&pollers, nfds_t(pollers.count), Int32(min(left, 3600) * 1000) + 1)
        if ready < 0 && errno != EINTR { throw Failure.system("cannot wait for the session bus", errno) }
        guard ready > 0 else { return true }
        if pollers[0].revents == 0 {
            woken = true
            return false
        }
        var chunk = [UInt8](repeating: 0, count: 8192)
        let got = read(socket, &chunk, chunk.count)
        if got < 0 && (errno == EINTR || errno == EAGAIN) { return true }
        guard got > 0 else {
            isOpen = false
            throw Failure.closed
        }
        received += chunk[..<got]
        return true
    }

    private func readAuthenticationLine(until deadline: Deadline) throws -> String {
        while true {
            if let end = received.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: received[..<end], as: UTF8.self)
                received.removeSubrange(...end)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            guard try fill(until: deadline) else { throw Failure.timedOut("authentication") }
        }
    }

    private func writeAll(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let wrote = bytes[sent...].withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if wrote < 0 && errno == EINTR { continue }
            guard wrote > 0 else {
                isOpen = false
                throw Failure.closed
            }
            sent += wrote
        }
    }
}
