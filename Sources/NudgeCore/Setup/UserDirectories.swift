/// Where nudge keeps things for a user who names no place, after the XDG base directory convention:
/// data in `$XDG_DATA_HOME/nudge`, nudge's own files of that directory in `$XDG_STATE_HOME/nudge`, user units in
/// `$XDG_CONFIG_HOME/systemd/user`.
public enum UserDirectories {
    /// Why no default place could be worked out.
    public struct NoHome: Error, Equatable, CustomStringConvertible {
        public var description: String {
            "HOME is not set and XDG_DATA_HOME names no absolute directory: pass --data DIR or set NUDGE_DATA"
        }
    }

    /// `$XDG_DATA_HOME/nudge`, else `$HOME/.local/share/nudge`. `home` is `$HOME`, or the account's home
    /// directory when the environment has none. The convention ignores relative values: they would name a
    /// different directory in every working directory.
    public static func dataDirectory(environment: [String: String], home: String?) -> Result<String, NoHome> {
        base(environment["XDG_DATA_HOME"], home: home, fallback: ".local/share").map { join($0, "nudge") }
    }

    /// `$XDG_STATE_HOME/nudge`, else `$HOME/.local/state/nudge`: where the default data directory's own files live
    /// (plan.json, state.json, the outbox, the lock; docs/files.md, "Where nudge keeps its own files").
    package static func stateDirectory(environment: [String: String], home: String?) -> Result<String, NoHome> {
        base(environment["XDG_STATE_HOME"], home: home, fallback: ".local/state").map { join($0, "nudge") }
    }

    /// `$XDG_CONFIG_HOME/systemd/user`, else `$HOME/.config/systemd/user`: where systemd looks for user units.
    public static func userUnitDirectory(environment: [String: String], home: String?) -> Result<String, NoHome> {
        base(environment["XDG_CONFIG_HOME"], home: home, fallback: ".config").map { join($0, "systemd/user") }
    }

    /// The directories where units installed for all users live, in systemd's search order for a user manager
    /// (systemd.unit(5)): `$XDG_CONFIG_DIRS/systemd/user` (else /etc/xdg), /etc/systemd/user,
    /// `$XDG_DATA_DIRS/systemd/user` (else /usr/local/share and /usr/share), /usr/local/lib/systemd/user and
    /// /usr/lib/systemd/user. A unit there is a package's or the administrator's.
    public static func systemUnitDirectories(environment: [String: String]) -> [String] {
        func list(_ variable: String, _ fallback: [String]) -> [String] {
            let given = (environment[variable] ?? "").split(separator: ":").map(String.init)
                .filter { $0.hasPrefix("/") }
            return (given.isEmpty ? fallback : given).map { join($0, "systemd/user") }
        }
        return list("XDG_CONFIG_DIRS", ["/etc/xdg"]) + ["/etc/systemd/user"]
            + list("XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"])
            + ["/usr/local/lib/systemd/user", "/usr/lib/systemd/user"]
    }

    private static func base(_ variable: String?, home: String?, fallback: String) -> Result<String, NoHome> {
        if let variable, variable.hasPrefix("/") { return .success(variable) }
        guard let home, home.hasPrefix("/") else { return .failure(NoHome()) }
        return .success(join(home, fallback))
    }

    private static func join(_ directory: String, _ name: String) -> String {
        directory.hasSuffix("/") ? directory + name : directory + "/" + name
    }
}
