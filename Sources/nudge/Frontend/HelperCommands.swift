/// The names of the hidden commands nudge starts itself (`nudge desktop-wait`, `nudge channel-exec`): the shell
/// starts them and finds their processes by these names; the commands register under them.
enum HelperCommands {
    /// The click waiter of a notification (`DesktopWaitCommand`).
    static let desktopWait = "desktop-wait"
    /// The wrapper that notes a channel program's start and end (`ChannelExecCommand`).
    static let channelExec = "channel-exec"
    /// The variable in which `channel-exec` tells the click waiter its note, which the waiter marks shown.
    static let startNoteVariable = "NUDGE_START_NOTE"
}
