import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// Set by SIGTERM, SIGHUP or SIGINT (a logout, `systemctl --user stop`): the waiter closes its notification
/// before it goes, so none is left on screen with buttons nobody listens to.
private var waiterStopRequested: sig_atomic_t = 0

/// The click waiter's work (`nudge desktop-wait`, docs/desktop.md): shows one notification on its own connection
/// to the session bus, answers the run, and with buttons holds it until a click, a settlement by another route,
/// its expiry or its server's end.
enum ClickWaiter {
    /// How long the close at the end may take before the waiter goes anyway.
    static let closeGrace: Double = 2
    /// How long an idle waiter sleeps between looks at the wall clock (its expiry after a clock step) when inotify
    /// tells it of every change of its files: an hour, so that it wakes about once an hour while nothing happens.
    static let idleLook: Double = 3600

    /// Shows `request` for the delivery `id` and, with buttons, waits until `until` (by `clock`); answers the
    /// run that started it on stdout.
    static func run(id: String, until: Date, request: NotifyRequest, directory: DataDirectory, clock: RunClock,
                    console: Console) -> ExitCode {
        // From the start: a stop that comes while the notification is being shown (a logout just then) would
        // otherwise end the waiter at once, and leave it on screen with buttons nobody listens to.
        listenForStop()
        let shown: (BusConnection, NotificationWatch)
        let hold: WaiterHold?
        switch show(request) {
        case .failure(let failure):
            answer("failed: \(failure)", id: id, directory: directory, now: clock.now())
            return .failure
        case .success(let (connection, watch, capabilities)):
            // No buttons, or a server that draws none and showed it plainly: nothing to wait for (docs/desktop.md).
            let waits = capabilities.contains("actions") && !watch.buttons.isEmpty
            // The waiter's file before the answer: a run that has counted it shown finds where it is.
            hold = waits ? holdFile(for: (connection, watch), id: id, request: request, until: until,
                                    directory: directory) : nil
            answer("shown \(watch.id)", id: id, directory: directory, now: clock.now())
            guard waits else { return .success }
            shown = (connection, watch)
        }
        // It outlives the run: out of the run's service, whose next start would warn about it (`WaiterUnit`).
        WaiterUnit.leaveService(console)
        let left = until.timeIntervalSince(clock.now())
        shown.0.isInterrupted = { waiterStopRequested != 0 }
        let clicks = ClickApplier(id: id, directory: directory, clock: clock, hold: hold,
                                  isStopped: { waiterStopRequested != 0 })
        var watch = SettlementWatch(directory: directory, id: id)
        let expiry = Deadline(after: left)
        var unapplied = false
        wait(on: shown.0, for: shown.1, until: until, clock: clock, changes: DirectoryChanges(directory),
             settled: { watch.check(now: clock.now()) != nil }) { action in
            let label = request.buttons.first { $0.action == action }?.label ?? action
            unapplied = !clicks.apply(action, label: label, until: expiry)
        }
        // Closed by now (or gone with its server): a click not applied stays in the file for the next run to
        // report; otherwise nothing is left to do.
        if unapplied {
            hold?.update { $0.giveUpClick(stopped: waiterStopRequested != 0) }
            hold?.leave()
        } else {
            hold?.remove()
        }
        return .success
    }

    /// SIGTERM, SIGHUP and SIGINT set `waiterStopRequested`, without `SA_RESTART`: they interrupt the waits for
    /// the bus, for the lock and for a file, and the waiter closes its notification and goes.
    private static func listenForStop() {
        waiterStopRequested = 0
        var stopping = sigaction()
        stopping.__sigaction_handler.sa_handler = { _ in waiterStopRequested = 1 }
        for stop in [SIGTERM, SIGHUP, SIGINT] { sigaction(stop, &stopping, nil) }
    }

    /// The waiter's locked file (`WaiterHold`, docs/desktop.md, "A waiter that is gone"): where the notification
    /// is, for a run to close it should the waiter be killed. nil when the bus does not say its id.
    private static func holdFile(for shown: (BusConnection, NotificationWatch), id: String, request: NotifyRequest,
                                 until: Date, directory: DataDirectory) -> WaiterHold? {
        let deadline = Deadline(after: DesktopChannel.answerTimeout)
        guard let busID = (try? shown.0.call(NotificationsBus.getID(), until: deadline))?.body.first?.string else {
            return nil
        }
        return WaiterHold.take(HeldNotification(id: id, title: request.summary, busID: busID, server: shown.1.server,
                                                number: shown.1.id, expiresAt: until), in: directory)
    }

    /// Connects, listens for the server's signals when there are buttons to wait for (before Notify, so none is
    /// missed), asks what the server can do and shows the notification: the connection, what it holds, and the
    /// server's capabilities.
    static func show(_ request: NotifyRequest)
        -> Result<(BusConnection, NotificationWatch, [String]), BusConnection.Failure> {
        let environment: [String: String]
        switch DesktopChannel.sessionEnvironment(ProcessEnvironment.all()) {
        case .success(let filled): environment = filled
        case .failure(let missing): return .failure(.noBus(missing.description))
        }
        let deadline = Deadline(after: DesktopChannel.answerTimeout)
        let opened = BusConnection.open(address: environment["DBUS_SESSION_BUS_ADDRESS"] ?? "",
                                        timeout: DesktopChannel.answerTimeout)
        guard case .success(let connection) = opened else {
            if case .failure(let failure) = opened { return .failure(failure) }
            return .failure(.closed)
        }
        do {
            for rule in NotificationsBus.matchRules where !request.buttons.isEmpty {
                _ = try connection.call(NotificationsBus.addMatch(rule), until: deadline)
            }
            let capabilities = try connection.call(NotificationsBus.getCapabilities(), until: deadline)
                .body.first?.strings ?? []
            let reply = try connection.call(NotificationsBus.notify(request, capabilities: capabilities),
                                            until: deadline)
            guard let number = reply.body.first?.uint32, let server = reply.sender else {
                return .failure(.error(name: "Notify", text: "the server answered without a notification number"))
            }
            let buttons = capabilities.contains("actions") ? request.buttons.map(\.action) : []
            return .success((connection, NotificationWatch(server: server, id: number, buttons: buttons),
                             capabilities))
        } catch let failure as BusConnection.Failure {
            return .failure(failure)
        } catch {
            return .failure(.closed)
        }
    }

    /// Holds the notification until it closes, its server goes, a click, its `expiresAt` by `clock` (or a stop
    /// signal), or until `settled` says another route handled it, when it closes it. `settled` is asked when one
    /// of the files it reads changed (`changes`, inotify: the waiter sleeps in one `poll` on the bus and the
    /// files), and without inotify every `SettlementWatch.interval` seconds. The expiry is an instant of the wall
    /// clock, read again at every look, at the latest every `idleLook` seconds: a clock set past it closes the
    /// notification (docs/design.md, "Deadlines"); the waits between looks are `Deadline`s.
    static func wait(on connection: BusConnection, for watch: NotificationWatch, until expiresAt: Date,
                     clock: RunClock, changes: DirectoryChanges? = nil, settled: () -> Bool = { false },
                     apply: (String) -> Void) {
        connection.wakeDescriptor = changes?.descriptor
        defer { connection.wakeDescriptor = nil }
        var lookNow = true
        var nextLook = Deadline(after: 0)
        waiting: while true {
            if lookNow || nextLook.hasPassed {
                if settled() { break waiting }
                lookNow = false
                nextLook = Deadline(after: changes == nil ? SettlementWatch.interval : idleLook)
            }
            let expiry = Deadline(after: expiresAt.timeIntervalSince(clock.now()))
            let message: DBusMessage?
            do {
                message = try connection.next(until: min(expiry, nextLook))
            } catch {
                return   // the bus is gone, and the notification with it
            }
            guard let message else {
                if connection.takeWoken() { lookNow = changes?.drain() ?? true }
                if expiry.hasPassed || connection.isInterrupted() { break waiting }
                continue waiting
            }
            switch watch.step(for: message) {
            case .ignore: continue waiting
            case .end: return
            case .apply(let action):
                apply(action)
                break waiting
            case .dismiss: break waiting
            }
        }
        // A click (the server usually closed it already: the number is then unknown to it and the call
        // changes nothing), a settlement by another route or the expiry: closed by its creator, at the server
        // that showed it.
        connection.isInterrupted = { false }
        _ = try? connection.call(NotificationsBus.closeNotification(watch.id, server: watch.server),
                                 until: Deadline(after: closeGrace))
    }

    /// Writes the one answer the run waits for, then lets go of the pipe. When the run is gone (killed while it
    /// waited), the waiter records the showing in state.json itself, so the next run does not show it again.
    static func answer(_ text: String, id: String, directory: DataDirectory, now: Date) {
        let line = Array((text + "\n").utf8)
        let written = line.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
        let null = open("/dev/null", O_WRONLY)
        if null >= 0 {
            dup2(null, STDOUT_FILENO)
            close(null)
        }
        if text.hasPrefix("shown"), let note = getenv(HelperCommands.startNoteVariable).map({ String(cString: $0) }) {
            // Shown: a run that dies before it reads this answer leaves the next run to count it as delivered.
            if case .success(let data) = PosixFile.contents(of: note), var start = ChannelStart(fileContent: data) {
                start.shown = true
                try? AtomicFile.write(start.fileContent, to: note, durability: .derived)
            }
        }
        unsetenv(HelperCommands.startNoteVariable)
        guard written != line.count, text.hasPrefix("shown") else { return }
        guard let lock = try? directory.lock(wait: DirectoryLock.editingWait),
              var state = try? directory.loadState() else { return }
        withExtendedLifetime(lock) {
            state.channelQueue.recordAttempt(id, channel: .desktop, error: nil, now: now)
            try? Commit(state: state).write(to: directory)
        }
    }
}
