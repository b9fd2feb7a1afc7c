import Foundation

/// A home directory for a test's own systemd user manager: `~/.local/bin/nudge` is the binary under test, as the
/// README installs it, and `environment` is what a login gives the manager (HOME, PATH and the user's name; no
/// NUDGE_DATA, no XDG_DATA_HOME).
struct LoginHome {
    /// The test's directory; `home` lies below it.
    let root: URL
    let home: URL

    init(_ name: String) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString)")
        home = root.appendingPathComponent("home/you")
        let bin = home.appendingPathComponent(".local/bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: NudgeProcess.executableURL(), to: bin.appendingPathComponent("nudge"))
    }

    /// The starter data directory `nudge init` writes.
    var data: URL { home.appendingPathComponent(".local/share/nudge") }
    /// Where the default directory's own files are (docs/files.md, "Where nudge keeps its own files").
    var state: URL { home.appendingPathComponent(".local/state/nudge") }
    var nudge: String { home.path + "/.local/bin/nudge" }

    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "TZ": "UTC",
         "LANG": "C.UTF-8", "USER": "root", "LOGNAME": "root"].merging(extra) { $1 }
    }

    func remove() {
        try? FileManager.default.removeItem(at: root)
    }
}
