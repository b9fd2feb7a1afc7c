import FoundationEssentials

/// What a click waiter holds (docs/desktop.md, "A waiter that is gone"): the notification it showed, where it is
/// (the bus instance, the unique name of the server that showed it and the number that server gave it), until
/// when, and a click it has yet to apply.
///
/// The waiter keeps it in a file of `.waiters/` that it holds locked for as long as it lives; the kernel lets go
/// of the lock however the waiter ends, SIGKILL included, and a later process with the same pid cannot hold it.
/// So a run that can take the lock knows the waiter is gone and reads in the file what it left: a notification
/// whose buttons nothing listens to, to be closed, and a click that was not applied, to be reported.
public struct HeldNotification: Equatable, Sendable {
    /// The delivered notification's occurrence id and title.
    var id: String
    var title: String
    /// The bus instance's id (`org.freedesktop.DBus.GetId`): a session bus started again (a new login) reuses
    /// unique names, and its `server` would be another program.
    public var busID: String
    /// The unique name (`:1.7`) of the server that showed it, and the number it gave it.
    public var server: String
    public var number: UInt32
    public var expiresAt: Date
    /// The waiter closed it before it went (at the expiry, or stopped): nothing of it is left on screen.
    public var closed = false
    /// A click the waiter has not applied yet, or could not apply at all.
    public var click: PendingClick?

    public init(id: String, title: String, busID: String, server: String, number: UInt32, expiresAt: Date) {
        self.id = id
        self.title = title
        self.busID = busID
        self.server = server
        self.number = number
        self.expiresAt = expiresAt
    }

    /// A button clicked on the notification whose action could not be applied yet (docs/desktop.md, "A click
    /// that cannot be applied at once").
    public struct PendingClick: Equatable, Sendable {
        /// The action (`COMPLETE_ACTION`) and the button's label ("Start Dryer").
        var action: String
        var label: String
        var clickedAt: Date
        /// Why the last attempt failed, as nudge said it ("" before the first); once given up, the whole reason.
        public var error: String

        public init(action: String, label: String, clickedAt: Date, error: String) {
            self.action = action
            self.label = label
            self.clickedAt = clickedAt
            self.error = error
        }
    }

    /// The waiter gives its click up and closes the notification, at the expiry or stopped (a logout): the
    /// click's error becomes the whole reason it was not applied.
    public mutating func giveUpClick(stopped: Bool) {
        closed = true
        guard var click else { return }
        let why = stopped ? UnappliedClick.stoppedReason : UnappliedClick.gaveUpReason(expiresAt: expiresAt)
        click.error = click.error.isEmpty ? why : "\(why): \(click.error)"
        self.click = click
    }

    /// The click left in the file of a waiter that is gone, as `status` and the run's stderr report it: one the
    /// waiter gave up (`giveUpClick`), or one it was still trying when it was killed. nil without a click.
    public var unappliedClick: UnappliedClick? {
        guard let click else { return nil }
        let killed = UnappliedClick.killedReason
        let reason = closed ? click.error : click.error.isEmpty ? killed : "\(killed): \(click.error)"
        return UnappliedClick(id: id, title: title, action: click.action, label: click.label,
                              clickedAt: click.clickedAt, reason: reason)
    }

    /// The file's content: one JSON object and a newline.
    public var fileContent: [UInt8] {
        var members = [
            JSONMember("id", .string(id)),
            JSONMember("title", .string(title)),
            JSONMember("busID", .string(busID)),
            JSONMember("server", .string(server)),
            JSONMember("number", .number(String(number))),
            JSONMember("expiresAt", .string(RFC3339.format(expiresAt))),
            JSONMember("closed", .bool(closed)),
        ]
        if let click {
            members.append(JSONMember("click", .object([
                JSONMember("action", .string(click.action)),
                JSONMember("label", .string(click.label)),
                JSONMember("clickedAt", .string(RFC3339.format(click.clickedAt))),
                JSONMember("error", .string(click.error)),
            ])))
        }
        return Array((JSONValue.object(members).compactText + "\n").utf8)
    }

    /// A file's content; nil for one that does not read (a waiter killed while it wrote the file before its
    /// rename leaves a partial temporary file, which holds nothing shown).
    public init?(fileContent data: [UInt8]) {
        guard let value = try? JSONParser.parse(data),
              let id = value["id"]?.stringValue, let title = value["title"]?.stringValue,
              let busID = value["busID"]?.stringValue, let server = value["server"]?.stringValue,
              let number = value["number"]?.intValue.flatMap(UInt32.init(exactly:)),
              let expiresAt = value["expiresAt"]?.stringValue.flatMap(RFC3339.parse) else { return nil }
        self.init(id: id, title: title, busID: busID, server: server, number: number, expiresAt: expiresAt)
        closed = value["closed"] == .bool(true)
        if let click = value["click"], let action = click["action"]?.stringValue,
           let label = click["label"]?.stringValue,
           let clickedAt = click["clickedAt"]?.stringValue.flatMap(RFC3339.parse),
           let error = click["error"]?.stringValue {
            self.click = PendingClick(action: action, label: label, clickedAt: clickedAt, error: error)
        }
    }
}
