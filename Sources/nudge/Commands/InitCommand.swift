import Foundation
import NudgeCore
#if canImport(Glibc)
import Glibc
#endif

/// `nudge init [DIR]`: writes a starter data directory. Never overwrites a file that exists.
enum InitCommand {
    static let command = Command(
        name: "init",
        usage: "nudge init [DIR] [--data DIR]",
        summary: "write a starter data directory (settings, one alarm, one laundry pet); keeps existing files",
        options: [.data, .help],
        positionals: 0...1,
        forms: [[.directory]],
        run: run)

    static func run(_ arguments: ParsedArguments, _ console: Console) throws -> ExitCode {
        let url = arguments.positionals.first.map { URL(fileURLWithPath: $0) } ?? arguments.dataDirectory
        if !FileManager.default.fileExists(atPath: url.path) {
            guard mkdir(url.path, 0o700) == 0 else { throw AtomicFile.failure("cannot create", url.path) }
        }
        let directory = DataDirectory(url: url)
        let zone = SystemZone.resolve(settingsZone: nil).identifier
        for (name, content) in starterFiles(zone: zone) {
            if FileManager.default.fileExists(atPath: directory.fileURL(name).path) {
                console.out("kept     \(directory.fileURL(name).path) (exists)")
            } else {
                try directory.write(name, Data(content.utf8))
                console.out("created  \(directory.fileURL(name).path)")
            }
        }
        console.out("Next: `nudge run --data \(url.path)` plans them; see crontab.example to run it every minute.")
        return .success
    }

    static func starterFiles(zone: String) -> [(String, String)] {
        let zoneText = JSONValue.string(zone).compactText
        return [
            ("settings.json", """
            {
              "timeZone": \(zoneText),
              "notifications": { "enabled": true, "sound": true, "badge": true },
              "laundry": { "foldReminderMinutes": 30, "healthWarnAfterDays": 7 }
            }

            """),
            ("alarms.json", """
            {
              "alarms": [
                { "id": "fajr", "title": "Morning Prayer", "time": "05:30", "durationMinutes": 15,
                  "weekdays": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] }
              ]
            }

            """),
            ("laundry.json", """
            {
              "pets": [
                { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60 }
              ]
            }

            """),
        ]
    }
}
