import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A real CalDAV server of the test's own, for the calendar channel's end-to-end tests (docs/calendar.md): Debian's
/// Radicale or Xandikos on 127.0.0.1, on a free port, in a fresh temporary directory that holds its storage, its
/// configuration and its log. Started here with posix_spawn, stopped by its pid (SIGTERM, then waited for until it
/// is reaped), restarted on the same port with the same storage. What the server holds is read by the harness's
/// own client (CalDAVServer+Client.swift), never by nudge's code; what it was asked, from its own log
/// (CalDAVServer+Log.swift).
///
/// The URL layouts:
/// - Radicale: `http://127.0.0.1:PORT/USER/NAME/`. The principal `/USER/` is made at the user's first request;
///   `[auth] type = htpasswd` with `htpasswd_encryption = plain` checks the password of every request (a wrong one
///   is a 401, no delay), and `[rights] type = owner_only` keeps USER to `/USER/…` (403 elsewhere).
/// - Xandikos: `http://127.0.0.1:PORT/user/calendars/NAME/` (`--autocreate` makes the principal `/user/`, whose
///   calendar home is `calendars/`). Xandikos has no authentication: any credentials, or none, are accepted.
final class CalDAVServer {
    enum Kind: String, CaseIterable {
        case radicale, xandikos

        /// Debian's program (a script of Debian's /usr/bin/python3), not one that pip put earlier on PATH.
        var program: String { "/usr/bin/\(rawValue)" }
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The User-Agent of every request the harness makes itself (readiness, readers, MKCALENDAR, DELETE, khal's
    /// sync), so that `requests()` can leave them out of what the product asked.
    static let harnessAgent = "nudge-tests-caldav-harness"

    let kind: Kind
    let user: String
    let password: String
    let port: Int
    /// The temporary directory of this server: `storage/`, `config`, `users`, `server.log`; removed by deinit.
    let root: URL
    /// Everything the server printed, over all its starts: the request log that `requests()` reads.
    let log: URL
    /// The pid of the running server; 0 once stopped.
    private(set) var pid: pid_t = 0
    /// The pids of every start, for a test to see that none is left.
    private(set) var pids: [pid_t] = []

    var baseURL: String { "http://127.0.0.1:\(port)" }

    private init(kind: Kind, user: String, password: String, port: Int, root: URL) {
        self.kind = kind
        self.user = user
        self.password = password
        self.port = port
        self.root = root
        log = root.appendingPathComponent("server.log")
    }

    /// Starts a server of `kind` that knows `user` with `password` (Radicale checks them; Xandikos has no
    /// authentication) and waits until it answers. Skips the test (fails it under CI) when the server or Debian's
    /// python3 is not installed.
    static func start(_ kind: Kind, user: String = "sam", password: String = "secret") throws -> CalDAVServer {
        guard FileManager.default.isExecutableFile(atPath: kind.program) else {
            throw RealPart.missing("\(kind.program) is not installed (Debian: apt install \(kind.rawValue)); "
                + ".ci/run installs it")
        }
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("nudge-caldav-\(kind.rawValue)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("home"),
                                                withIntermediateDirectories: true)
        let server = CalDAVServer(kind: kind, user: user, password: password, port: try LoopbackHTTP.freePort(),
                                  root: root)
        try server.writeConfiguration()
        try server.launch()
        return server
    }

    /// The URL of the calendar collection `name` (ends with `/`).
    func collectionURL(_ name: String) -> String {
        switch kind {
        case .radicale: return "\(baseURL)/\(user)/\(name)/"
        case .xandikos: return "\(baseURL)/user/calendars/\(name)/"
        }
    }

    /// Stops the server and starts it again on the same port with the same storage; the log goes on.
    func restart() throws {
        stop()
        try launch()
    }

    /// Whether the server started last still runs.
    var isRunning: Bool { pid > 0 && kill(pid, 0) == 0 }

    /// Stops the server by its pid: SIGTERM, then waits until it has ended and is reaped (SIGKILL after 10 s).
    /// Keeps the directory, so the log can still be read.
    func stop() {
        guard pid > 0 else { return }
        defer { pid = 0 }
        kill(pid, SIGTERM)
        if (try? Waiting.until("\(kind.rawValue) (pid \(pid)) to end", timeout: 10) { reaped(pid) }) != nil { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: root)
    }

    /// The program and its arguments; the configuration files they name are written by `writeConfiguration`.
    private var command: [String] {
        switch kind {
        case .radicale:
            return [kind.program, "--config", root.appendingPathComponent("config").path]
        case .xandikos:
            return [kind.program, "--autocreate", "-d", root.appendingPathComponent("storage").path,
                    "-l", "127.0.0.1", "-p", String(port)]
        }
    }

    /// Radicale's configuration and users (plain passwords need no extra package; `delay = 0`: a wrong password
    /// is answered at once) and log level `info`, which logs each request with its method, path, client and
    /// status. Xandikos needs none: it logs every request (aiohttp's access log) at its fixed level.
    private func writeConfiguration() throws {
        guard kind == .radicale else { return }
        try "\(user):\(password)\n".write(to: root.appendingPathComponent("users"), atomically: true,
                                          encoding: .utf8)
        let configuration = """
            [server]
            hosts = 127.0.0.1:\(port)
            [auth]
            type = htpasswd
            htpasswd_filename = \(root.appendingPathComponent("users").path)
            htpasswd_encryption = plain
            delay = 0
            [rights]
            type = owner_only
            [storage]
            filesystem_folder = \(root.appendingPathComponent("storage").path)
            [web]
            type = none
            [logging]
            level = info
            mask_passwords = True

            """
        try configuration.write(to: root.appendingPathComponent("config"), atomically: true, encoding: .utf8)
    }

    /// Starts the program with an environment of its own (HOME in this directory: no user's configuration is
    /// read), both outputs appended to the log, and waits until it answers an OPTIONS request.
    private func launch() throws {
        let arguments = command
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_APPEND | O_CREAT, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let home = root.appendingPathComponent("home").path
        let environment = ["PATH=/usr/bin:/bin", "HOME=\(home)", "XDG_CONFIG_HOME=\(home)/.config",
                           "LANG=C.UTF-8", "PYTHONUNBUFFERED=1"]
        let cArguments = arguments.map { strdup($0) } + [nil]
        let cEnvironment = environment.map { strdup($0) } + [nil]
        defer {
            cArguments.forEach { free($0) }
            cEnvironment.forEach { free($0) }
        }
        var started: pid_t = 0
        let result = posix_spawn(&started, arguments[0], &actions, nil, cArguments, cEnvironment)
        guard result == 0 else {
            throw Failure(description: "cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        pid = started
        pids.append(started)
        do {
            try Waiting.until("\(kind.rawValue) to answer on port \(port)") {
                guard !reaped(started) else {
                    throw Failure(description: "\(kind.rawValue) (pid \(started)) ended at its start:\n\(lastLines())")
                }
                return LoopbackHTTP.status("OPTIONS", "/.harness-ready", port: port, agent: Self.harnessAgent) != nil
            }
        } catch let timedOut as Waiting.TimedOut {
            stop()
            throw Failure(description: "\(timedOut.description); its log's end:\n\(lastLines())")
        }
    }

    /// Whether `pid`, started here, has ended; reaps it when it has.
    private func reaped(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        let answer = waitpid(pid, &status, WNOHANG)
        return answer == pid || (answer < 0 && errno == ECHILD)
    }

    /// The end of the server's log, for a failure's message.
    func lastLines(_ count: Int = 20) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let lines = text.split(separator: "\n").suffix(count)
        return lines.isEmpty ? "(the log is empty)" : lines.joined(separator: "\n")
    }
}
