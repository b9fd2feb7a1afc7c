import Foundation
import XCTest

/// Hostile and mistaken user files (docs/files.md, "Mistakes in your files"): each is reported with the file
/// and the place (line:column for syntax, key path for values), exits 65, never crashes, never takes long, and
/// never silences the other files — `nudge run` still delivers what they make due.
///
/// Every case of the table runs in a fresh directory holding three valid files with something due at 08:00
/// (alarms.json: `fajr` at 08:00; laundry.json: `snowy`'s wash completing at 08:00; streaks.json: an achievement
/// unlocked at 08:00), with the case's file written over one of them (or added). Then `nudge check` and
/// `nudge run --now 08:00` (the first run ever: what is due exactly now is delivered) must both give the case's
/// exit code and message, and the run must deliver every due notification of the files the case left valid.
final class HostileInputTests: XCTestCase {
    struct Case {
        var group: String
        var name: String
        var file: String
        var content: Data
        /// 65 for bad data, 0 for a file that is valid however odd it looks.
        var exit: Int32
        /// For 65: what stderr must contain after `<dir>/`: the file name and the place.
        var fragment: String?
        /// What the case's own file makes due at 08:00 (only for valid files).
        var delivers: [String] = []

        init(_ group: String, _ name: String, _ file: String, _ content: Data, exit: Int32, _ fragment: String?,
             delivers: [String] = []) {
            self.group = group
            self.name = name
            self.file = file
            self.content = content
            self.exit = exit
            self.fragment = fragment
            self.delivers = delivers
        }

        init(_ group: String, _ name: String, _ file: String, _ text: String, exit: Int32, _ fragment: String?,
             delivers: [String] = []) {
            self.init(group, name, file, Data(text.utf8), exit: exit, fragment, delivers: delivers)
        }
    }

    static let now = "2026-11-21T08:00:00Z"
    static let alarmID = "alarm.prayer:fajr:2026-11-21"
    static let washID = "laundry.washComplete:snowy:c-1"
    static let achievementID = "streak.achievement:ach:unlocked"

    static let validFiles: [String: String] = [
        "settings.json": Fixture.settings(),
        "alarms.json": Fixture.alarm(time: "08:00", durationMinutes: 30),
        "laundry.json": Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z"),
        "streaks.json": """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 0 } ],
              "achievements": [ { "id": "ach", "title": "Centurion", "description": "100 days",
                                  "unlockedAt": "2026-11-21T08:00:00Z" } ] }

            """,
    ]

    /// What the valid files deliver at 08:00, by the file that makes it due.
    static let dueByFile: [String: [String]] = [
        "alarms.json": [alarmID], "laundry.json": [washID], "streaks.json": [achievementID],
    ]

    /// laundry.json with one pet whose washMinutes (or another value) is `value`, text pasted as is.
    static func pet(washMinutes: String = "45", startedAt: String = "2026-11-21T07:15:00Z", name: String = "Snowy",
                    id: String = "snowy") -> String {
        """
        { "pets": [ { "id": "\(id)", "name": "\(name)", "washMinutes": \(washMinutes), "dryMinutes": 60,
                      "cycle": { "id": "c-1", "stage": "wash", "startedAt": "\(startedAt)" } } ] }

        """
    }

    static func alarm(time: String = "\"08:00\"", weekdays: String? = nil, duration: String = "30") -> String {
        let days = weekdays.map { ", \"weekdays\": \($0)" } ?? ""
        return """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": \(time), "durationMinutes": \(duration)\(days) } ] }

            """
    }

    static func settings(_ members: String) -> String {
        "{ \"timeZone\": \"UTC\", \(members) }\n"
    }

    static let bom = Data([0xEF, 0xBB, 0xBF])
    static let fiveMegabytes = String(repeating: "Snowy the magnificent ", count: 5 * 1024 * 1024 / 22)

    static let cases: [Case] = {
        var cases: [Case] = []
        func add(_ item: Case) { cases.append(item) }

        // MARK: Syntax and encoding (laundry.json)
        add(Case("syntax", "empty file", "laundry.json", "", exit: 65,
                 "laundry.json:1:1: unexpected end of input; expected a JSON value"))
        add(Case("syntax", "only whitespace", "laundry.json", "  \n\n", exit: 65,
                 "laundry.json:3:1: unexpected end of input"))
        add(Case("syntax", "null", "laundry.json", "null\n", exit: 65, "laundry.json: expected an object, found null"))
        add(Case("syntax", "top-level array", "laundry.json", "[ { \"id\": \"snowy\" } ]\n", exit: 65,
                 "laundry.json: expected an object, found an array"))
        add(Case("syntax", "top-level string", "laundry.json", "\"pets\"\n", exit: 65,
                 "laundry.json: expected an object, found a string"))
        add(Case("syntax", "UTF-8 BOM then valid JSON", "laundry.json",
                 bom + Data(Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z").utf8), exit: 0, nil,
                 delivers: [washID]))
        add(Case("syntax", "two BOMs", "laundry.json", bom + bom + Data("{ \"pets\": [] }".utf8), exit: 65,
                 "laundry.json:1:1: expected a JSON value"))
        add(Case("syntax", "invalid UTF-8 inside a string", "laundry.json",
                 Data("{\"pets\": [{\"id\": \"snowy\", \"name\": \"Sn".utf8) + Data([0xFF])
                    + Data("wy\"}]}\n".utf8), exit: 65, "laundry.json:1:38: invalid UTF-8"))
        add(Case("syntax", "overlong UTF-8 (C0 AF) inside a string", "laundry.json",
                 Data("{\"pets\": [{\"id\": \"snowy\", \"name\": \"".utf8) + Data([0xC0, 0xAF])
                    + Data("\"}]}\n".utf8), exit: 65, "laundry.json:1:36: invalid UTF-8"))
        add(Case("syntax", "UTF-16 file", "laundry.json",
                 Data([0xFF, 0xFE]) + "{ \"pets\": [] }".data(using: .utf16LittleEndian)!, exit: 65,
                 "laundry.json:1:1: "))
        add(Case("syntax", "unpaired surrogate escape", "laundry.json",
                 "{\"pets\": [{\"id\": \"snowy\", \"name\": \"\\ud800\"}]}\n", exit: 65,
                 "laundry.json:1:36: unpaired surrogate"))
        add(Case("syntax", "raw control character in a string", "laundry.json",
                 "{\"pets\": [{\"id\": \"snowy\", \"name\": \"Sno\u{7}wy\"}]}\n", exit: 65,
                 "laundry.json:1:39: unescaped control character"))
        add(Case("syntax", "NUL after the document", "laundry.json", "{ \"pets\": [] }\u{0}", exit: 65,
                 "laundry.json:1:15: trailing characters"))
        add(Case("syntax", "nesting 100,000 arrays deep", "laundry.json",
                 "{\"pets\": " + String(repeating: "[", count: 100_000), exit: 65,
                 "laundry.json:1:521: nesting deeper than 512"))
        add(Case("syntax", "nesting 100,000 objects deep", "laundry.json",
                 String(repeating: "{\"a\":", count: 100_000) + "1" + String(repeating: "}", count: 100_000),
                 exit: 65, "laundry.json:1:2561: nesting deeper than 512"))
        add(Case("syntax", "duplicate key", "laundry.json", "{ \"pets\": [], \"pets\": [] }\n", exit: 65,
                 "laundry.json:1:15: duplicate key \"pets\""))
        add(Case("syntax", "file cut off by a crashed editor", "laundry.json",
                 String(Fixture.laundry(washStartedAt: "2026-11-21T07:15:00Z").prefix(60)), exit: 65,
                 "laundry.json:1:61: unexpected end of input"))

        // MARK: Numbers used as minutes
        for (label, literal) in [("1e400", "1e400"), ("2^63", "9223372036854775808"),
                                 ("-2^63 - 1", "-9223372036854775809"), ("negative", "-5"), ("zero", "0"),
                                 ("huge", "99999999"), ("a fraction", "15.0"), ("an exponent", "1e2"),
                                 ("2^63 - 1", "9223372036854775807"), ("a string", "\"45\""), ("true", "true")] {
            add(Case("numbers", "washMinutes \(label)", "laundry.json", pet(washMinutes: literal), exit: 65,
                     "laundry.json: pets[0].washMinutes: "))
        }
        add(Case("numbers", "durationMinutes 2^63", "alarms.json", alarm(duration: "9223372036854775808"), exit: 65,
                 "alarms.json: alarms[0].durationMinutes: "))
        add(Case("numbers", "maxPending 1e400", "settings.json", settings("\"maxPending\": 1e400"), exit: 65,
                 "settings.json: maxPending: "))
        add(Case("numbers", "streak 2^64", "streaks.json",
                 "{ \"games\": [ { \"id\": \"w\", \"name\": \"W\", \"streak\": 18446744073709551616 } ] }\n",
                 exit: 65, "streaks.json: games[0].streak: "))

        // MARK: Dates
        for (label, instant) in [("1999", "1999-12-31T23:00:00Z"), ("2201", "2201-01-01T00:00:00Z"),
                                 ("9999", "9999-12-31T23:59:59Z")] {
            add(Case("dates", "startedAt in \(label)", "laundry.json", pet(startedAt: instant), exit: 65,
                     "laundry.json: pets[0].cycle.startedAt: \"\(instant)\" is outside the years 2000 to 2200"))
        }
        for (label, text) in [("February 30", "2026-02-30T07:15:00Z"), ("no offset", "2026-11-21T07:15:00"),
                              ("hour 25", "2026-11-21T25:15:00Z"), ("year 10000", "10000-01-01T00:00:00Z"),
                              ("offset +99:00", "2026-11-21T07:15:00+99:00"), ("year 0000", "0000-01-01T00:00:00Z"),
                              ("a date only", "2026-11-21")] {
            add(Case("dates", "startedAt \(label)", "laundry.json", pet(startedAt: text), exit: 65,
                     "laundry.json: pets[0].cycle.startedAt: \"\(text)\" is "))
        }
        add(Case("dates", "startedAt at the end of 2200 is valid", "laundry.json",
                 pet(startedAt: "2200-12-31T23:59:59Z"), exit: 0, nil))
        add(Case("dates", "achievement in 9999", "streaks.json",
                 "{ \"achievements\": [ { \"id\": \"a\", \"title\": \"T\", \"description\": \"d\", "
                    + "\"unlockedAt\": \"9999-01-01T00:00:00Z\" } ] }\n", exit: 65,
                 "streaks.json: achievements[0].unlockedAt: "))
        add(Case("dates", "trip arriving in 2201", "trips.json",
                 "{ \"trips\": [ { \"id\": \"x\", \"destination\": \"X\", \"arriveAt\": \"2201-01-01T00:00:00Z\", "
                    + "\"travelMinutes\": 20 } ] }\n", exit: 65, "trips.json: trips[0].arriveAt: "))

        // MARK: Zones
        for zone in ["Mars/Olympus_Mons", "", "../../../etc/passwd", "Europe/Berln", "utc", "UTC+99"] {
            add(Case("zones", "timeZone \"\(zone)\"", "settings.json", "{ \"timeZone\": \"\(zone)\" }\n", exit: 65,
                     "settings.json: timeZone: "))
        }
        // Not IANA names: POSIX TZ syntax, where "UTC+5" means five hours *behind* UTC, while Foundation reads
        // it as GMT+05:00. Accepting it silently moves every alarm by ten hours for someone who copied $TZ.
        for zone in ["UTC+5", "GMT-3", "UTC+05:30"] {
            add(Case("posixzones", "timeZone \"\(zone)\"", "settings.json", "{ \"timeZone\": \"\(zone)\" }\n",
                     exit: 65, "settings.json: timeZone: "))
        }
        add(Case("zones", "timeZone a number", "settings.json", "{ \"timeZone\": 1 }\n", exit: 65,
                 "settings.json: timeZone: expected a string"))
        add(Case("zones", "timeZone Etc/UTC is valid", "settings.json", "{ \"timeZone\": \"Etc/UTC\" }\n", exit: 0,
                 nil))

        // MARK: Weekdays and HH:MM (alarms.json)
        for (label, days) in [("funday", "[\"mon\", \"funday\"]"), ("Mon", "[\"Mon\"]"), ("a number", "[1]")] {
            add(Case("wallclock", "weekday \(label)", "alarms.json", alarm(weekdays: days), exit: 65,
                     "alarms.json: alarms[0].weekdays[\(label == "funday" ? 1 : 0)]: "))
        }
        add(Case("wallclock", "weekdays empty", "alarms.json", alarm(weekdays: "[]"), exit: 65,
                 "alarms.json: alarms[0].weekdays: "))
        add(Case("wallclock", "weekdays a string", "alarms.json", alarm(weekdays: "\"mon\""), exit: 65,
                 "alarms.json: alarms[0].weekdays: expected an array"))
        for time in ["24:00", "12:60", "7:5", "07:5", "-1:00", "08:00:00", "", "８:００", "8h00", "99:99"] {
            add(Case("wallclock", "time \"\(time)\"", "alarms.json", alarm(time: "\"\(time)\""), exit: 65,
                     "alarms.json: alarms[0].time: \"\(time)\" is not a time (HH:MM)"))
        }
        add(Case("wallclock", "time a number", "alarms.json", alarm(time: "800"), exit: 65,
                 "alarms.json: alarms[0].time: expected a string"))
        add(Case("wallclock", "quiet hours end 24:00", "settings.json",
                 settings("\"quietHours\": { \"start\": \"22:00\", \"end\": \"24:00\" }"), exit: 65,
                 "settings.json: quietHours.end: "))

        // MARK: Duplicate ids
        add(Case("ids", "two alarms called fajr", "alarms.json", """
            { "alarms": [ { "id": "fajr", "title": "Morning Prayer", "time": "08:00" },
                          { "id": "fajr", "title": "Noon Prayer", "time": "12:00" } ] }
            """, exit: 65, "alarms.json: alarms[1].id: duplicate id \"fajr\""))
        add(Case("ids", "two pets called snowy", "laundry.json", """
            { "pets": [ { "id": "snowy" }, { "id": "snowy" } ] }
            """, exit: 65, "laundry.json: pets[1].id: duplicate id \"snowy\""))
        add(Case("ids", "two achievements called a", "streaks.json", """
            { "achievements": [ { "id": "a", "title": "T", "description": "", "unlockedAt": "2026-11-21T08:00:00Z" },
                                { "id": "a", "title": "U", "description": "", "unlockedAt": "2026-11-21T08:00:00Z" } ] }
            """, exit: 65, "streaks.json: achievements[1].id: duplicate id \"a\""))
        add(Case("ids", "id with a colon and a slash", "laundry.json", pet(id: "a:b/c"), exit: 65,
                 "laundry.json: pets[0].id: "))

        // MARK: Large values
        add(Case("large", "5 MB name of an idle pet", "laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 45,
                          "cycle": { "id": "c-1", "stage": "wash", "startedAt": "2026-11-21T07:15:00Z" } },
                        { "id": "rex", "name": "\(fiveMegabytes)" } ] }
            """, exit: 0, nil, delivers: [washID]))
        add(Case("large", "5 MB name of the pet whose wash is due", "laundry.json", pet(name: fiveMegabytes), exit: 0,
                 nil, delivers: [washID]))
        add(Case("large", "5 MB id", "laundry.json", pet(id: String(repeating: "x", count: 5 * 1024 * 1024)),
                 exit: 65, "laundry.json: pets[0].id: "))
        add(Case("large", "5 MB unknown key", "laundry.json",
                 "{ \"notes\": \"\(fiveMegabytes)\", " + pet().dropFirst(2), exit: 0, nil, delivers: [washID]))
        let plays = (0..<100_000).map { index in
            let day = 1 + index % 28
            return String(format: "{ \"game\": \"wordle\", \"at\": \"2026-10-%02dT%02d:%02d:00Z\" }",
                          day, index % 24, index % 60)
        }
        add(Case("large", "100,000 plays", "streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 3 } ],
              "plays": [ \(plays.joined(separator: ",\n")) ],
              "achievements": [ { "id": "ach", "title": "Centurion", "description": "100 days",
                                  "unlockedAt": "2026-11-21T08:00:00Z" } ] }
            """, exit: 0, nil, delivers: [achievementID]))

        // MARK: deliver.command (settings.json)
        for (label, value) in [("a string", "\"notify-send {title}\""), ("an empty array", "[]"),
                               ("an object", "{ \"argv\": [\"notify-send\"] }"), ("a number", "1")] {
            add(Case("command", "deliver.command \(label)", "settings.json",
                     settings("\"deliver\": { \"command\": \(value) }"), exit: 65, "settings.json: deliver.command: "))
        }
        add(Case("command", "deliver.command with an empty program", "settings.json",
                 settings("\"deliver\": { \"command\": [\"\", \"{title}\"] }"), exit: 65,
                 "settings.json: deliver.command[0]: "))
        add(Case("command", "deliver.command with a number argument", "settings.json",
                 settings("\"deliver\": { \"command\": [\"notify-send\", 5] }"), exit: 65,
                 "settings.json: deliver.command[1]: "))
        add(Case("command", "deliver a string", "settings.json", settings("\"deliver\": \"notify-send\""), exit: 65,
                 "settings.json: deliver: expected an object"))

        // MARK: Other
        add(Case("other", "version 2", "laundry.json", "{ \"version\": 2, \"pets\": [] }\n", exit: 65,
                 "laundry.json: version: "))
        add(Case("other", "pets an object", "laundry.json", "{ \"pets\": { \"snowy\": {} } }\n", exit: 65,
                 "laundry.json: pets: expected an array"))
        add(Case("other", "stage unknown", "laundry.json", """
            { "pets": [ { "id": "snowy", "cycle": { "stage": "spin", "startedAt": "2026-11-21T07:15:00Z" } } ] }
            """, exit: 65, "laundry.json: pets[0].cycle.stage: "))
        return cases
    }()

    // MARK: - Running a case

    struct Timing {
        var name: String
        var check: TimeInterval
        var run: TimeInterval
    }

    nonisolated(unsafe) static var timings: [Timing] = []
    static let timingLock = NSLock()

    /// Asserts every promise for one case; returns nothing, failing with the case's name in every message.
    func verify(_ item: Case) throws {
        let dir = try TemporaryDataDirectory(label: "nudge-hostile")
        defer { dir.remove() }
        for (name, text) in Self.validFiles {
            try dir.write(name, text)
        }
        try item.content.write(to: dir.fileURL(item.file))
        let label = "[\(item.group)] \(item.name) (\(item.file))"

        let check = try NudgeProcess(["check", "--data", dir.path], workingDirectory: dir.url).waitForExit(timeout: 60)
        let run = try NudgeProcess(["run", "--json", "--data", dir.path, "--now", Self.now], workingDirectory: dir.url)
            .waitForExit(timeout: 60)
        Self.timingLock.lock()
        Self.timings.append(Timing(name: label, check: check.elapsed, run: run.elapsed))
        Self.timingLock.unlock()

        for (command, result) in [("check", check), ("run", run)] {
            let context = "\(label): nudge \(command)\n\(Self.short(result.summary))"
            // No crash: a signal would show as another status (4 SIGILL, 5 SIGTRAP, 6 SIGABRT, 11 SIGSEGV).
            XCTAssertTrue([0, 65].contains(result.status), "crashed or failed: \(context)")
            XCTAssertEqual(result.status, item.exit, context)
            // A message never echoes a huge value.
            XCTAssertLessThan(result.stderr.utf8.count, 16_384, "stderr of \(result.stderr.utf8.count) bytes: \(label)")
            if let fragment = item.fragment {
                XCTAssertTrue(result.stderr.contains("\(dir.path)/\(fragment)"),
                              "stderr lacks \"\(dir.path)/\(fragment)\": \(context)")
            }
        }

        // The run delivers what every other file makes due, and what the case's file does when it is valid.
        var expected = Self.dueByFile.filter { $0.key != item.file }.flatMap(\.value)
        expected += item.delivers
        let delivered = run.jsonLines().compactMap { $0["id"] as? String }
        XCTAssertEqual(delivered.sorted(), expected.sorted(), "\(label): delivered\n\(Self.short(run.summary))")
        XCTAssertEqual(try dir.outboxIDs().sorted(), expected.sorted(), "\(label): outbox")
        // The run still wrote its plan and state, and they parse.
        XCTAssertNoThrow(try dir.json("plan.json"), label)
        XCTAssertNoThrow(try dir.json("state.json"), label)
        if item.exit == 65 {
            // Whatever became of it: the file, an entry or a setting "… until it is fixed" (docs/promises.md).
            XCTAssertTrue(run.stderr.contains("nudge: \(item.file)") && run.stderr.contains("until it is fixed"),
                          "\(label): run does not say what it does about the broken file\n\(Self.short(run.summary))")
        }
    }

    static func short(_ text: String) -> String {
        text.count <= 2_000 ? text : String(text.prefix(2_000)) + "… (\(text.count) characters)"
    }

    func verifyGroup(_ group: String) throws {
        let items = Self.cases.filter { $0.group == group }
        XCTAssertFalse(items.isEmpty, "no cases in group \(group)")
        for item in items {
            try verify(item)
        }
    }

    func testSyntaxAndEncoding() throws { try verifyGroup("syntax") }
    func testNumbersAsMinutes() throws { try verifyGroup("numbers") }
    func testDatesOutOfRange() throws { try verifyGroup("dates") }
    func testUnknownZones() throws { try verifyGroup("zones") }
    func testOffsetZonesThatAreNoIANANamesAreRejected() throws { try verifyGroup("posixzones") }
    func testWeekdaysAndWallClockTimes() throws { try verifyGroup("wallclock") }
    func testDuplicateIDs() throws { try verifyGroup("ids") }
    func testLargeValues() throws { try verifyGroup("large") }
    func testDeliverCommandShape() throws { try verifyGroup("command") }
    func testOtherShapes() throws { try verifyGroup("other") }

    /// A user file that exists but cannot be read as a file (here a directory named laundry.json, as `mkdir`
    /// in the wrong place makes; a FIFO or a permission problem behave the same) is a bad file like any other:
    /// named in the message, exit 65, and the other files still plan and deliver.
    func testUnreadableUserFileDoesNotSilenceTheOthers() throws {
        let dir = try TemporaryDataDirectory(label: "nudge-hostile")
        defer { dir.remove() }
        for (name, text) in Self.validFiles where name != "laundry.json" {
            try dir.write(name, text)
        }
        try FileManager.default.createDirectory(at: dir.fileURL("laundry.json"), withIntermediateDirectories: false)

        let check = try NudgeProcess.run(["check", "--data", dir.path])
        XCTAssertEqual(check.status, 65, check.summary)
        XCTAssertTrue(check.stderr.contains("\(dir.path)/laundry.json"), check.summary)

        let run = try NudgeProcess.run(["run", "--json", "--data", dir.path, "--now", Self.now])
        XCTAssertEqual(run.status, 65, run.summary)
        XCTAssertTrue(run.stderr.contains("\(dir.path)/laundry.json"), run.summary)
        XCTAssertEqual(run.deliveredIDs().sorted(), [Self.alarmID, Self.achievementID].sorted(), run.summary)
    }

    /// Prints the wall time of every case, slowest first: a report, not an assertion. Speed is measured by
    /// bench/run.sh; what these tests hold a case to is its exit within `waitForExit`'s 60 s, which catches a
    /// hang or a blow-up with the input's size, not a slow machine.
    override class func tearDown() {
        timingLock.lock()
        let sorted = timings.sorted { max($0.check, $0.run) > max($1.check, $1.run) }
        timingLock.unlock()
        if !sorted.isEmpty {
            print("HostileInputTests timings (slowest first, check / run):")
            for timing in sorted.prefix(12) {
                print(String(format: "  %6.3f s / %6.3f s  ", timing.check, timing.run) + timing.name)
            }
            print("  … \(sorted.count) cases")
        }
        super.tearDown()
    }
}
