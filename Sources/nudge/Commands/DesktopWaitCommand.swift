import FoundationEssentials
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge desktop-wait` (internal, docs/desktop.md), an adapter over `ClickWaiter`: started by the desktop channel,
/// in a session of its own, for every notification. It is the D-Bus client itself: on one connection to the session bus it sends `Notify`
/// and answers the run on its standard output as soon as the server shows the notification ("shown ID" or
/// "failed: REASON"). Without buttons (none in the record, or a server that draws none) that is all: the
/// connection was a short one. With buttons it holds a locked file in `.waiters/` that says where the notification
/// is (`WaiterHold`: a run closes it should the waiter be killed), applies a click as `nudge act ID ACTION` would
/// (`ClickApplier`: retried until it can be, docs/desktop.md, "A click that cannot be applied at once"), and at
/// the record's `expiresAt` closes the notification from that same connection — the only one GNOME Shell lets
/// close it, and the one it sends the clicks to. It closes it too as soon as another route settles it
/// (`SettlementWatch`: a command in a terminal, another notification's button, an edit). It ends when the
/// notification closes, when its server goes away (a restarted server reuses the numbers: nothing is closed
/// then), or after closing it: no waiter outlives its notification.
enum DesktopWaitCommand {
    static let id = OptionSpec.option("--id", "ID", "the delivered notification's id")
    static let until = OptionSpec.option("--until", "T", "its expiresAt: close it then")

    static let command = Command(
        name: HelperCommands.desktopWait,
        usage: "nudge desktop-wait --id ID --now T --until T [--data DIR] -- NOTIFY-REQUEST…",
        summary: "(started by nudge) show a notification and, when it has buttons, apply the one clicked",
        options: [
            id, .now, until,
            .data, .help,
        ],
        positionals: 1...64,
        run: run,
        hidden: true)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        signal(SIGPIPE, SIG_IGN)
        guard let id = arguments.text(Self.id), let until = arguments.text(Self.until).flatMap(RFC3339.parse),
              let request = NotifyRequest(arguments: arguments.positionals) else {
            throw CLIError.usage("nudge desktop-wait: needs --id, --until and a request; usage: \(command.usage)")
        }
        return ClickWaiter.run(id: id, until: until, request: request, directory: try arguments.directory(),
                               clock: RunClock(fixed: arguments.instant(.now)), console: console)
    }
}
