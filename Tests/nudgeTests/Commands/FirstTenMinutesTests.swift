import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A new user's first ten minutes: the README's "Set up" lines, run as written in an empty home
/// directory, must leave a working installation — `plan`, `status` and `test` without `--data` or NUDGE_DATA,
/// unit files that systemd accepts, a notification on a real desktop.
final class FirstTenMinutesTests: XCTestCase {
    private var root: URL!
    private var home: URL!
    /// Stands in for the checkout: `.build/release/nudge` is the binary under test, as `swift build` made it.
    private var checkout: URL!
    private var session: DesktopSession?

    override func setUpWithError() throws {
        try super.setUpWithError()
        root = FileManager.default.temporaryDirectory.appendingPathComponent("nudge-home-\(UUID().uuidString)")
        home = root.appendingPathComponent("home/you")
        checkout = root.appendingPathComponent("nudge")
        let release = checkout.appendingPathComponent(".build/release")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: release, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: NudgeProcess.executableURL(),
                                         to: release.appendingPathComponent("nudge"))
    }

    override func tearDown() {
        if let home {
            DesktopSession.stopWaiters(for: home.path + "/.local/share/nudge")
        }
        session?.stop()
        if let root { try? FileManager.default.removeItem(at: root) }
        super.tearDown()
    }

    /// A login's environment: HOME, PATH and the desktop's runtime directory; no NUDGE_DATA, no XDG_DATA_HOME.
    private func login() -> [String: String] {
        var environment = ["HOME": home.path, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
                           "TZ": "UTC", "LANG": "C.UTF-8"]
        environment["XDG_RUNTIME_DIR"] = session?.runtimeDirectory.path
        return environment
    }

    private func shell(_ line: String) throws -> ExternalTool.Result {
        try ExternalTool.run("/bin/bash", ["-euo", "pipefail", "-c", line], exactEnvironment: login(),
                             workingDirectory: checkout)
    }

    private func installed(_ arguments: String...) throws -> ExternalTool.Result {
        try ExternalTool.run(home.path + "/.local/bin/nudge", arguments, exactEnvironment: login(),
                             workingDirectory: home)
    }

    func testTheReadmeSetupLinesWorkInAnEmptyHome() throws {
        session = try DesktopSession()
        XCTAssertFalse(FileManager.default.fileExists(atPath: home.path + "/.local"))
        var ranTest = false
        for line in try ReadmeBlock.lines(after: "<!-- setup:") {
            if line.hasPrefix("swift build") { continue }  // the binary under test is that build
            if line.hasPrefix("systemctl --user") {
                try verifyUserUnits()  // no user manager in a test: check the units as systemd reads them
                continue
            }
            let result = try shell(line)
            XCTAssertEqual(result.status, 0, "\(line)\n\(result.summary)")
            if line.hasSuffix("nudge test") {
                ranTest = true
                XCTAssertTrue(result.stdout.contains("Your notifications are working perfectly!"), result.summary)
                XCTAssertEqual(try session?.waitForNotifyCalls(1).first?.summary, "Test Notification")
            }
        }
        XCTAssertTrue(ranTest, "the setup lines end with `nudge test`")

        // The manual and completion lines, in the same shell, where ~/.local/bin is not on PATH until the next
        // login: they call the binary just installed by its path, never a `nudge` that may not be found.
        for line in try ReadmeBlock.lines(after: "<!-- manual:") {
            let result = try shell("PATH=/usr/bin:/bin; " + line)
            XCTAssertEqual(result.status, 0, "\(line)\n\(result.summary)")
            XCTAssertEqual(result.stderr, "", "\(line)\n\(result.summary)")
        }
        for installed in [".local/share/man/man1/nudge.1", ".local/share/bash-completion/completions/nudge",
                          ".zfunc/_nudge", ".config/fish/completions/nudge.fish"] {
            let size = (try? FileManager.default.attributesOfItem(atPath: home.path + "/" + installed))?[.size]
            XCTAssertGreaterThan((size as? NSNumber)?.intValue ?? 0, 500, installed)
        }

        let data = home.path + "/.local/share/nudge"
        for name in ["settings.json", "alarms.json", "laundry.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: data + "/" + name), name)
        }
        let settings = try String(contentsOfFile: data + "/settings.json", encoding: .utf8)
        XCTAssertTrue(settings.contains(#""deliver": { "desktop": true }"#), "the desktop's session bus is there: " + settings)

        // What the timer does every minute, then what the user looks at: no --data, no NUDGE_DATA.
        let run = try installed("run", "--quiet")
        XCTAssertEqual(run.status, 0, run.summary)
        let plan = try installed("plan")
        XCTAssertEqual(plan.status, 0, plan.summary)
        XCTAssertTrue(plan.stdout.contains("Morning Prayer Time"), plan.summary)
        XCTAssertFalse(plan.stdout.contains("Warning"), plan.summary)
        let status = try installed("status")
        XCTAssertEqual(status.status, 0, status.summary)
        XCTAssertTrue(status.stdout.contains("Files: all valid"), status.summary)
        XCTAssertTrue(status.stdout.contains("  test:test:"), "the test delivery is listed with its id: "
            + status.summary)
    }

    /// `systemd-analyze verify --user` on what `init --systemd` wrote: exit 0 and not one warning.
    private func verifyUserUnits() throws {
        let units = home.path + "/.config/systemd/user"
        let service = try String(contentsOfFile: units + "/nudge.service", encoding: .utf8)
        // The binary and the data directory in the home directory, written with %h: the same units would serve
        // any user (docs/packaging.md).
        XCTAssertTrue(service.contains("ExecStart=%h/.local/bin/nudge run --quiet --systemd --wait 30 --data "
            + "%h/.local/share/nudge\n"), service)
        let analyze = try ExternalTool.require("systemd-analyze", package: "systemd")
        let runtime = root.appendingPathComponent("run")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        var environment = login()
        environment["XDG_RUNTIME_DIR"] = runtime.path
        let files = ["nudge.service", "nudge-alarm.service", "nudge.path", "nudge-hourly.timer"].map { units + "/" + $0 }
        let result = try ExternalTool.run(analyze, ["verify", "--user", "--man=no"] + files,
                                          exactEnvironment: environment)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "", "systemd warns about the units")
    }

    func testTheReadmeTemplateUnitsForManyUsersPassSystemdAnalyze() throws {
        let analyze = try ExternalTool.require("systemd-analyze", package: "systemd")
        let blocks = try ReadmeBlock.iniBlocks()
        let service = try XCTUnwrap(blocks["/etc/systemd/system/nudge@.service"])
        let timer = try XCTUnwrap(blocks["/etc/systemd/system/nudge@.timer"])
        XCTAssertTrue(service.contains("User=%i"))
        let units = root.appendingPathComponent("units")
        try FileManager.default.createDirectory(at: units, withIntermediateDirectories: true)
        // The README installs nudge in /usr/local/bin; systemd checks that the program exists.
        let binary = try NudgeProcess.executableURL().path
        try service.replacingOccurrences(of: "/usr/local/bin/nudge", with: binary)
            .write(to: units.appendingPathComponent("nudge@.service"), atomically: true, encoding: .utf8)
        try timer.write(to: units.appendingPathComponent("nudge@.timer"), atomically: true, encoding: .utf8)
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        for suffix in ["service", "timer"] {
            try FileManager.default.createSymbolicLink(atPath: units.path + "/nudge@\(user).\(suffix)",
                                                       withDestinationPath: "nudge@.\(suffix)")
        }
        let result = try ExternalTool.run(analyze, ["verify", "--man=no", units.path + "/nudge@\(user).service",
                                                    units.path + "/nudge@\(user).timer"],
                                          exactEnvironment: ["PATH": "/usr/bin:/bin"])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "", "systemd warns about the template units")
    }
}

/// The README's code blocks, read from the checkout the tests were built from.
/// The README's file examples are whole files, copyable as they stand (docs/promises.md: a `// settings.json` line
/// inside a block is a syntax error once copied).
final class ReadmeFileExampleTests: XCTestCase {
    func testEveryJSONBlockOfTheReadmeIsValidJSON() throws {
        let blocks = try ReadmeBlock.text().components(separatedBy: "```json\n").dropFirst()
            .compactMap { $0.components(separatedBy: "\n```").first }
        XCTAssertGreaterThanOrEqual(blocks.count, 5)
        for block in blocks {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(block.utf8)), block)
        }
    }
}

enum ReadmeBlock {
    static func text() throws -> String {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        return try String(contentsOf: readme, encoding: .utf8)
    }

    /// The lines of the first fenced block after the line that starts with `marker`, without comments.
    static func lines(after marker: String) throws -> [String] {
        let lines = try text().components(separatedBy: "\n")
        guard let start = lines.firstIndex(where: { $0.hasPrefix(marker) }),
              let open = lines[start...].firstIndex(where: { $0.hasPrefix("```") }),
              let close = lines[(open + 1)...].firstIndex(where: { $0.hasPrefix("```") }) else {
            throw NSError(domain: "ReadmeBlock", code: 1,
                          userInfo: [NSLocalizedDescriptionKey: "README.md has no code block after \(marker)"])
        }
        return lines[(open + 1)..<close].map { line in
            // A trailing "   # comment" explains the line; the shell would ignore it too.
            (line.range(of: "   #").map { String(line[..<$0.lowerBound]) } ?? line).trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
    }

    /// Every ```ini block whose first line is a `# PATH` comment, by that path, without the comment.
    static func iniBlocks() throws -> [String: String] {
        var blocks: [String: String] = [:]
        let parts = try text().components(separatedBy: "```ini\n").dropFirst()
        for part in parts {
            guard let end = part.range(of: "```") else { continue }
            var lines = part[..<end.lowerBound].components(separatedBy: "\n")
            guard let first = lines.first, first.hasPrefix("# ") else { continue }
            lines.removeFirst()
            blocks[String(first.dropFirst(2))] = lines.joined(separator: "\n")
        }
        return blocks
    }
}
