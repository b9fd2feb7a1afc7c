import Foundation
import XCTest
@testable import NudgeCore
@testable import nudge

/// `nudge completions bash|zsh|fish` and `nudge man`, checked with the real shells, groff and man.
/// What they must offer and document comes from `NudgeCLI.commands` itself, so a command or option added to the
/// table later is checked without touching this file.
final class CompletionsAndManualTests: XCTestCase {
    private var scratch: TemporaryDataDirectory!

    override func setUpWithError() throws {
        try super.setUpWithError()
        scratch = try TemporaryDataDirectory(label: "nudge-completions")
    }

    override func tearDown() {
        scratch?.remove()
        super.tearDown()
    }

    private var visibleCommands: [Command] { NudgeCLI.commands.filter { !$0.hidden } }
    private var hiddenCommands: [Command] { NudgeCLI.commands.filter(\.hidden) }

    /// `main` looks a command up with `command(named:)`, which builds only that command; it must find each one listed.
    func testEveryListedCommandIsFoundByItsNameAndNoOtherNameIs() {
        for command in NudgeCLI.commands {
            XCTAssertEqual(NudgeCLI.command(named: command.name)?.name, command.name)
        }
        XCTAssertNil(NudgeCLI.command(named: "frobnicate"))
    }

    // MARK: - bash

    func testBashCompletesCommandsOptionsAndFixedWordsAndNeverAHiddenCommand() throws {
        let bash = try ExternalTool.require("bash")
        let script = try output(["completions", "bash"])
        let file = try scratch.writeFile("nudge.bash", script)
        let syntax = try ExternalTool.run(bash, ["-n", file.path])
        XCTAssertEqual(syntax.status, 0, syntax.summary)
        XCTAssertEqual(syntax.stderr, "", syntax.summary)

        try FileManager.default.createDirectory(at: scratch.fileURL("alpha"), withIntermediateDirectories: true)
        try scratch.write("beta.txt", "")
        let offered = try bashCompletions(bash, [
            ["nudge", "la"], ["nudge", "run", "--li"], ["nudge", "laundry", ""], ["nudge", "completions", ""],
            ["nudge", "laundry", "start", "snowy", ""], ["nudge", "laundry", "fold", "snowy", ""],
            ["nudge", "laundry", "--now", "2026-11-21T08:00:00Z", "start", "snowy", ""],
            ["nudge", "act", "last", ""], ["nudge", "run", "--data", scratch.path + "/"],
            ["nudge", "init", scratch.path + "/"], ["nudge", ""], ["nudge", "de"],
        ])
        XCTAssertEqual(offered[0], ["laundry"])
        XCTAssertEqual(offered[1], ["--linger"])
        XCTAssertEqual(offered[2], ["start", "fold", "stop"])
        XCTAssertEqual(offered[3].sorted(), ["bash", "fish", "zsh"])
        XCTAssertEqual(offered[4].sorted(), ["dry", "wash"])
        XCTAssertEqual(offered[5], [], "fold takes only a pet")
        XCTAssertEqual(offered[6].sorted(), ["dry", "wash"], "an option and its value are no positional words")
        XCTAssertEqual(offered[7], ActCommand.offeredActions.map(\.rawValue))
        XCTAssertEqual(offered[8], [scratch.path + "/alpha"], "--data offers directories only")
        XCTAssertEqual(offered[9], [scratch.path + "/alpha"], "init offers directories only")
        XCTAssertEqual(offered[10], visibleCommands.map(\.name))
        for hidden in hiddenCommands {
            XCTAssertFalse(offered[10].contains(hidden.name), hidden.name)
            XCTAssertFalse(Self.withoutValueCalls(script).contains(hidden.name),
                           "the script names the hidden \(hidden.name)")
        }
        XCTAssertEqual(offered[11], [])
    }

    /// Loads the script into a real bash, the way `source <(nudge completions bash)` in ~/.bashrc does, and
    /// calls the function `complete -p nudge` names with each line's words (the last one is being completed).
    private func bashCompletions(_ bash: String, _ lines: [[String]]) throws -> [[String]] {
        var driver = """
            source <("$NUDGE_BINARY" completions bash) || exit 3
            function=$(complete -p nudge | sed -n 's/.*-F \\([^ ]*\\) .*/\\1/p')
            [ -n "$function" ] || exit 4
            offer() {
                COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; COMPREPLY=()
                "$function" nudge "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\\n' "${COMPREPLY[*]}"
            }

            """
        for words in lines {
            driver += "offer " + words.map { "'" + $0.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }
                .joined(separator: " ") + "\n"
        }
        let result = try ExternalTool.run(bash, ["--norc", "--noprofile", "-c", driver],
                                          environment: ["NUDGE_BINARY": try NudgeProcess.executableURL().path])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "", result.summary)
        let offered = NudgeResult.lines(result.stdout).map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(offered.count, lines.count, result.summary)
        return offered + Array(repeating: [], count: max(0, lines.count - offered.count))
    }

    // MARK: - zsh and fish

    func testZshScriptIsValidAndDescribesEveryCommandAndOption() throws {
        let zsh = try ExternalTool.require("zsh")
        let script = try output(["completions", "zsh"])
        XCTAssertTrue(script.hasPrefix("#compdef nudge\n"), "zsh autoloads it by its first line")
        let file = try scratch.writeFile("_nudge", script)
        let syntax = try ExternalTool.run(zsh, ["-n", file.path])
        XCTAssertEqual(syntax.status, 0, syntax.summary)
        XCTAssertEqual(syntax.stderr, "", syntax.summary)
        for command in visibleCommands {
            XCTAssertTrue(script.contains("'\(command.name):"), "no entry for \(command.name)")
            for option in command.options {
                XCTAssertTrue(script.contains("'\(option.name):"), "no entry for \(command.name) \(option.name)")
            }
        }
        hiddenCommands.forEach { XCTAssertFalse(Self.withoutValueCalls(script).contains($0.name), $0.name) }
    }

    func testFishCompletesCommandsOptionsAndFixedWordsAndNeverAHiddenCommand() throws {
        let fish = try ExternalTool.require("fish")
        let script = try output(["completions", "fish"])
        let file = try scratch.writeFile("nudge.fish", script)
        let syntax = try ExternalTool.run(fish, ["--no-execute", file.path])
        XCTAssertEqual(syntax.status, 0, syntax.summary)
        XCTAssertEqual(syntax.stderr, "", syntax.summary)

        XCTAssertEqual(try fishCompletions(fish, file, "nudge la"), ["laundry"])
        XCTAssertEqual(try fishCompletions(fish, file, "nudge run --li"), ["--linger"])
        XCTAssertEqual(try fishCompletions(fish, file, "nudge laundry "), ["fold", "start", "stop"])
        XCTAssertEqual(try fishCompletions(fish, file, "nudge laundry start snowy "), ["dry", "wash"])
        XCTAssertEqual(try fishCompletions(fish, file, "nudge completions "), ["bash", "fish", "zsh"])
        XCTAssertEqual(try fishCompletions(fish, file, "nudge "), visibleCommands.map(\.name).sorted())
        for command in visibleCommands {
            XCTAssertEqual(try fishCompletions(fish, file, "nudge \(command.name) --"),
                           command.options.map(\.name).sorted(), command.name)
        }
        hiddenCommands.forEach { XCTAssertFalse(Self.withoutValueCalls(script).contains($0.name), $0.name) }
    }

    /// What fish offers for `line` (`complete -C`), without the descriptions, sorted.
    private func fishCompletions(_ fish: String, _ script: URL, _ line: String) throws -> [String] {
        let command = "source \(script.path); complete -C '\(line)'"
        let result = try ExternalTool.run(fish, ["--no-config", "-c", command], environment: ["HOME": scratch.path])
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "", result.summary)
        return NudgeResult.lines(result.stdout).map { String($0.prefix { $0 != "\t" }) }.sorted()
    }

    // MARK: - bash and the table

    func testEveryCommandAndOptionOfTheTableIsCompletedByBash() throws {
        let bash = try ExternalTool.require("bash")
        let lines = visibleCommands.map { ["nudge", $0.name, "--"] }
        let offered = try bashCompletions(bash, lines)
        for (command, options) in zip(visibleCommands, offered) {
            XCTAssertEqual(options, command.options.map(\.name), command.name)
        }
    }

    // MARK: - The manual

    func testManualFormatsWithoutWarningsAndDocumentsEveryCommandWithItsOptions() throws {
        let groff = try ExternalTool.require("groff", package: "groff-base")
        let file = try scratch.writeFile("nudge.1", try output(["man"]))
        let formatted = try ExternalTool.run(groff, ["-man", "-Tutf8", "-ww", "-z", file.path])
        XCTAssertEqual(formatted.status, 0, formatted.summary)
        XCTAssertEqual(formatted.stderr, "", formatted.summary)

        // UTF-8 and plain ASCII terminals: every glyph must have a form in both.
        for locale in ["C.UTF-8", "C"] {
            let lines = NudgeResult.lines(try manual(file, locale: locale))
            for command in visibleCommands {
                let section = Self.subsection(command.name, of: lines)
                XCTAssertFalse(section.isEmpty, "no subsection \(command.name) in COMMANDS (\(locale))")
                let text = Self.normalized(section.joined(separator: " "))
                XCTAssertTrue(text.contains("nudge \(command.name)"), "\(command.name): no usage")
                let summary = command.summary.replacingOccurrences(of: "`", with: "")
                    .replacingOccurrences(of: "…", with: "...")
                XCTAssertTrue(text.contains(Self.normalized(summary)), "\(command.name): no summary")
                for option in command.options {
                    XCTAssertTrue(text.contains(option.name), "\(command.name) \(option.name) is not documented")
                }
            }
            let visibleOptions = Set(visibleCommands.flatMap { $0.options.map(\.name) })
            for hidden in hiddenCommands {
                XCTAssertFalse(lines.contains { $0.contains(hidden.name) }, "the manual names \(hidden.name)")
                for option in hidden.options where !visibleOptions.contains(option.name) {
                    XCTAssertFalse(lines.contains { $0.contains(option.name) }, "the manual names \(option.name)")
                }
            }
        }
    }

    func testManualListsEveryFileSettingVariableAndExitCode() throws {
        let file = try scratch.writeFile("nudge.1", try output(["man"]))
        let lines = NudgeResult.lines(try manual(file, locale: "C.UTF-8"))
        let headings = lines.filter { $0.first?.isLetter == true }
        XCTAssertEqual(Array(headings.dropFirst().dropLast()),
                       ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "COMMANDS", "FILES", "SETTINGS", "FILE FORMATS",
                        "ENVIRONMENT", "EXIT STATUS", "EXAMPLES", "SEE ALSO"])
        func section(_ name: String) -> String {
            let start = lines.firstIndex(of: name).map { $0 + 1 } ?? lines.endIndex
            let end = lines[start...].firstIndex { $0.first?.isLetter == true } ?? lines.endIndex
            return Self.normalized(lines[start..<end].joined(separator: " "))
        }
        let files = section("FILES")
        for name in ["settings.json", "laundry.json", "trips.json", "alarms.json", "streaks.json", "plan.json",
                     "state.json", "outbox.jsonl", ".last-good/", ".lock", "$NUDGE_DATA", "$XDG_DATA_HOME/nudge",
                     "~/.local/share/nudge"] {
            XCTAssertTrue(files.contains(name), "FILES lacks \(name)")
        }
        let settings = section("SETTINGS")
        let nested = ["notifications.enabled", "notifications.sound", "notifications.badge", "quietHours.start",
                      "quietHours.end", "deliver.desktop", "deliver.command", "laundry.enabled",
                      "laundry.warnBeforeMinutes", "laundry.foldReminderMinutes", "laundry.healthWarnAfterDays",
                      "commute.enabled", "commute.defaultBufferMinutes", "personalized.enabled",
                      "personalized.firstName", "personalized.time", "alarms.enabled", "alarms.snoozeMinutes",
                      "streaks.enabled", "streaks.time", "streaks.smart"]
        for key in Settings.topLevelKeys.map(\.description) + nested {
            XCTAssertTrue(settings.contains(key), "SETTINGS lacks \(key)")
        }
        XCTAssertTrue(settings.contains("maxPending (1 to 10000; default 64)"), settings)
        let formats = section("FILE FORMATS")
        for key in ["pets", "washMinutes", "cycle", "startedAt", "alarms", "durationMinutes", "weekdays", "trips",
                    "arriveBy", "arriveAt", "travelMinutes", "observations", "games", "plays", "achievements",
                    "imports", "nextWakeAt", "deferred", "ledger", "deliveredAt", "lateSeconds"] {
            XCTAssertTrue(formats.contains(key), "FILE FORMATS lacks \(key)")
        }
        // Every key state.json is written with, the optional ones set.
        var state = RunState()
        state.lastRunCommandAt = Date(timeIntervalSince1970: 1_800_000_000)
        state.lastSystemdRunAt = state.lastRunCommandAt
        state.fileNotes = ["alarms.json: using the last good version"]
        let written = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(state.fileContent)) as? [String: Any])
        XCTAssertGreaterThanOrEqual(written.count, 33)
        for key in written.keys.sorted() {
            XCTAssertTrue(formats.contains(key), "FILE FORMATS lacks state.json's \(key)")
        }
        let environment = section("ENVIRONMENT")
        for name in ["NUDGE_DATA", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "TZ", "DBUS_SESSION_BUS_ADDRESS",
                     "XDG_RUNTIME_DIR", "NUDGE_ID", "NUDGE_KIND", "NUDGE_TITLE", "NUDGE_BODY", "NUDGE_DEEPLINK",
                     "NUDGE_PRIORITY", "NUDGE_BADGE"] {
            XCTAssertTrue(environment.contains(name), "ENVIRONMENT lacks \(name)")
        }
        let exitStatus = section("EXIT STATUS")
        for code in ExitCode.allCases {
            let meaning = Self.normalized(code.meaning.replacingOccurrences(of: "`", with: ""))
            XCTAssertTrue(exitStatus.contains("\(code.rawValue) \(meaning)"), "EXIT STATUS lacks \(code.rawValue)")
        }
        XCTAssertEqual(section("SEE ALSO"), "crontab(5), systemd.timer(5)")
    }

    /// The manual's `state.json` and docs/files.md's table are made from, or held to, the lists of members each part
    /// of the state declares, which are the members `fileContent` writes (RunStateTests).
    func testStateMembersAreListedPartByPartFromTheParts() throws {
        XCTAssertEqual(ManualText.stateParts.flatMap(\.keys), RunState.stateKeys)
        XCTAssertEqual(Set(ManualText.stateMeanings.keys), Set(RunState.stateKeys), "each member says what it holds")
        let page = try String(contentsOf: RepositoryScript.root.appendingPathComponent("docs/files.md"),
                              encoding: .utf8)
        let section = (page.components(separatedBy: "\n### state.json\n").dropFirst().first ?? "")
            .components(separatedBy: "\n#").first ?? ""
        let rows = section.split(separator: "\n").filter { $0.hasPrefix("| ") }.dropFirst(2).map { row in
                let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
                let members = cells.dropFirst().first?.components(separatedBy: "`").enumerated()
                    .filter { $0.offset % 2 == 1 }.map { String($0.element) } ?? []
                return "\(cells.first ?? ""): \(members.joined(separator: " "))"
            }
        XCTAssertEqual(rows, ManualText.stateParts.map { "\($0.part): \($0.keys.joined(separator: " "))" })
    }

    func testRoffEscapingLeavesNoStrayRequestInThePage() {
        XCTAssertEqual(Roff.prose(".starts with a dot"), #"\&.starts with a dot"#)
        XCTAssertEqual(Roff.prose("'starts with a quote"), #"\&'starts with a quote"#)
        XCTAssertEqual(Roff.prose(#"a \fB backslash"#), #"a \efB backslash"#)
        XCTAssertEqual(Roff.prose("`--data DIR` or --now (-x)"), #"\fB\-\-data DIR\fR or \-\-now (\-x)"#)
        XCTAssertEqual(Roff.prose("one-off — ok…"), #"one-off \(em ok..."#)
        XCTAssertEqual(Roff.usage("nudge act ID [--now T]"), #"\fBnudge\fR \fBact\fR \fIID\fR [\fB\-\-now\fR \fIT\fR]"#)
        let page = ManualPage.render(commands: NudgeCLI.commands, options: NudgeCLI.options, version: "0.1.0",
                                     tagline: NudgeCLI.tagline)
        let requests: Set<Substring> = [".TH", ".SH", ".SS", ".PP", ".TP", ".RS", ".RE", ".nf", ".fi", ".br", ".nh", ".ad"]
        for line in page.split(separator: "\n") where line.first == "." || line.first == "'" {
            XCTAssertTrue(requests.contains(line.prefix { $0 != " " }), "a stray request: \(line)")
        }
        XCTAssertFalse(page.contains("\n\n"), "an empty line in roff is a blank output line")
    }

    /// The page as `man -l` shows it on an 80-column terminal in `locale`; fails the test on any diagnostic.
    private func manual(_ file: URL, locale: String, line: UInt = #line) throws -> String {
        let man = try ExternalTool.require("man", package: "man-db")
        let shown = try ExternalTool.run(man, ["-l", file.path], environment: [
            "MANWIDTH": "80", "MANPAGER": "cat", "PAGER": "cat", "LC_ALL": locale, "LANG": locale,
        ])
        XCTAssertEqual(shown.status, 0, shown.summary, line: line)
        XCTAssertEqual(shown.stderr, "", shown.summary, line: line)
        return shown.stdout
    }

    /// The lines of a subsection of the formatted page (heading indented 3), up to the next heading.
    private static func subsection(_ name: String, of lines: [String]) -> [String] {
        guard let start = lines.firstIndex(of: "   " + name) else { return [] }
        let end = lines[(start + 1)...].firstIndex {
            ($0.hasPrefix("   ") && !$0.hasPrefix("    ")) || $0.first?.isLetter == true
        }
        return Array(lines[start..<(end ?? lines.endIndex)])
    }

    /// Runs of white space as one space, as the text reads once the lines are joined.
    private static func normalized(_ text: String) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" }).joined(separator: " ")
    }

    // MARK: - Usage

    func testCompletionsWithoutAShellOrWithAnUnknownOneExits64AndSaysWhich() throws {
        let missing = try NudgeProcess.run(["completions"], workingDirectory: scratch.url)
        XCTAssertEqual(missing.status, 64, missing.summary)
        XCTAssertEqual(missing.stdout, "", missing.summary)
        XCTAssertTrue(missing.stderr.contains("name the shell (bash, zsh or fish)"), missing.summary)
        let unknown = try NudgeProcess.run(["completions", "tcsh"], workingDirectory: scratch.url)
        XCTAssertEqual(unknown.status, 64, unknown.summary)
        XCTAssertEqual(unknown.stdout, "", unknown.summary)
        XCTAssertTrue(unknown.stderr.contains("unknown shell \"tcsh\" (expected bash, zsh or fish)"), unknown.summary)
        let two = try NudgeProcess.run(["completions", "bash", "zsh"], workingDirectory: scratch.url)
        XCTAssertEqual(two.status, 64, two.summary)
        for command in ["completions", "man"] {
            let help = try NudgeProcess.run([command, "--help"], workingDirectory: scratch.url)
            XCTAssertEqual(help.status, 0, help.summary)
            XCTAssertEqual(help.stdoutLines.first?.hasPrefix("usage: nudge \(command)"), true, help.summary)
        }
    }

    func testOverviewListsEveryExitCodeWithItsMeaning() throws {
        let overview = try NudgeProcess.run(["--help"], workingDirectory: scratch.url)
        XCTAssertEqual(overview.status, 0, overview.summary)
        for code in ExitCode.allCases {
            XCTAssertTrue(overview.stdoutLines.contains { $0.hasSuffix(" \(code.rawValue)  \(code.meaning)") },
                          "exit \(code.rawValue)\n" + overview.summary)
        }
    }

    /// The script without its calls of `nudge complete-values`, the one hidden command it runs (for the ids of
    /// the data directory) and never offers.
    private static func withoutValueCalls(_ script: String) -> String {
        script.replacingOccurrences(of: "nudge complete-values", with: "")
    }

    /// stdout of a successful `nudge ARGUMENTS` that printed nothing on stderr.
    private func output(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let result = try NudgeProcess.run(arguments, workingDirectory: scratch.url)
        XCTAssertEqual(result.status, 0, result.summary, file: file, line: line)
        XCTAssertEqual(result.stderr, "", result.summary, file: file, line: line)
        return result.stdout
    }
}

extension TemporaryDataDirectory {
    /// Writes `text` to `name` and returns its URL.
    func writeFile(_ name: String, _ text: String) throws -> URL {
        try write(name, text)
        return fileURL(name)
    }
}
