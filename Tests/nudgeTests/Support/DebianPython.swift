import Foundation

/// Debian's own python3 (not a pyenv or venv one earlier on PATH), which has Debian's python3-dbus and
/// python3-gi: the test servers and GNOME's pointer are a few lines of it.
enum DebianPython {
    static let path = "/usr/bin/python3"

    /// Whether `statement` (imports) runs without error.
    static func runs(_ statement: String) -> Bool {
        guard FileManager.default.isExecutableFile(atPath: path) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = ["-c", statement]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
