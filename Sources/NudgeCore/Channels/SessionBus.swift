/// Where the desktop's session bus is (docs/design.md, "The desktop"). cron gives a job neither
/// `DBUS_SESSION_BUS_ADDRESS` nor `XDG_RUNTIME_DIR`; a logged-in user's bus is a socket at `$XDG_RUNTIME_DIR/bus`,
/// which systemd-logind puts at `/run/user/<uid>/bus`.
public enum SessionBus {
    /// What the search found.
    enum Resolution: Equatable, Sendable {
        /// The environment already names a bus: used as it is.
        case given(String)
        /// Found a socket owned by the user: its address, and the runtime directory it lives in.
        case found(address: String, runtimeDirectory: String)
        /// No bus: the places looked at, for the message.
        case missing(lookedAt: [String])
    }

    public static let missingMessage = "no desktop session bus: not logged in to a desktop?"

    /// The bus for a process with `environment` run by `uid`. `isUserSocket(path)` says whether the path is a
    /// socket owned by the user.
    static func resolve(environment: [String: String], uid: UInt32,
                        isUserSocket: (String) -> Bool) -> Resolution {
        if let given = environment["DBUS_SESSION_BUS_ADDRESS"], !given.isEmpty { return .given(given) }
        var directories: [String] = []
        if let runtime = environment["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") { directories.append(runtime) }
        let standard = "/run/user/\(uid)"
        if !directories.contains(standard) { directories.append(standard) }
        for directory in directories where isUserSocket(directory + "/bus") {
            return .found(address: "unix:path=" + directory + "/bus", runtimeDirectory: directory)
        }
        return .missing(lookedAt: directories.map { $0 + "/bus" })
    }

    /// `environment` with the bus filled in (and `XDG_RUNTIME_DIR`, which some notification clients read), or
    /// nil with the places looked at when there is none.
    public static func environment(_ environment: [String: String], uid: UInt32,
                                   isUserSocket: (String) -> Bool) -> Result<[String: String], MissingBus> {
        switch resolve(environment: environment, uid: uid, isUserSocket: isUserSocket) {
        case .given:
            return .success(environment)
        case let .found(address, runtimeDirectory):
            var filled = environment
            filled["DBUS_SESSION_BUS_ADDRESS"] = address
            if filled["XDG_RUNTIME_DIR"]?.isEmpty ?? true { filled["XDG_RUNTIME_DIR"] = runtimeDirectory }
            return .success(filled)
        case .missing(let places):
            return .failure(MissingBus(lookedAt: places))
        }
    }

    /// No session bus, with where nudge looked.
    public struct MissingBus: Error, Equatable, CustomStringConvertible {
        var lookedAt: [String]
        public var description: String {
            SessionBus.missingMessage + " (DBUS_SESSION_BUS_ADDRESS is not set and there is no socket of yours at "
                + lookedAt.joined(separator: " or ") + ")"
        }
    }
}
