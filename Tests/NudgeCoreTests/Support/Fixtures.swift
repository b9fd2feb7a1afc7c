import Foundation
import XCTest
@testable import NudgeCore

/// Fixed zones and instants shared by the core tests, so every test reads with literal values.
enum Fixtures {
    static let berlin = zone("Europe/Berlin")
    static let newYork = zone("America/New_York")
    static let lordHowe = zone("Australia/Lord_Howe")
    static let kolkata = zone("Asia/Kolkata")
    static let tokyo = zone("Asia/Tokyo")
    static let utc = zone("UTC")
    static let auckland = zone("Pacific/Auckland")
    static let losAngeles = zone("America/Los_Angeles")

    static func zone(_ name: String) -> Zone {
        guard let zone = zoneNamed(name) else {
            XCTFail("zone \(name) is not known on this machine")
            return .utc
        }
        return zone
    }

    /// Where the system's tz database keeps its TZif files (the tzdata package; .ci/run installs it).
    static let zoneinfo = "/usr/share/zoneinfo"

    /// The zone a name stands for, as the shell finds it for the core: a fixed-offset name `Zone` gives
    /// (`GMT+0100`), else the TZif file of that name in the tz database, read here (the core reads no file).
    /// Nil for any other name.
    static func zoneNamed(_ name: String) -> Zone? {
        if let zone = Zone(offsetName: name) { return zone }
        guard let bytes = tzif(name) else { return nil }
        return Zone(identifier: name, tzif: bytes)
    }

    /// The bytes of the tz database's file for `name`; nil when there is none (or `name` leaves the database).
    static func tzif(_ name: String) -> [UInt8]? {
        guard !name.isEmpty, !name.hasPrefix("/"), !name.split(separator: "/").contains(where: { $0.hasPrefix(".") }),
              let data = FileManager.default.contents(atPath: zoneinfo + "/" + name) else { return nil }
        return [UInt8](data)
    }

    /// An instant from an RFC 3339 literal; a typo fails the test instead of crashing it.
    static func instant(_ text: String, file: StaticString = #filePath, line: UInt = #line) -> Date {
        guard let date = RFC3339.parse(text) else {
            XCTFail("bad instant literal \(text)", file: file, line: line)
            return Date(timeIntervalSince1970: 0)
        }
        return date
    }

    static func time(_ text: String) -> WallTime {
        WallTime(parsing: text) ?? WallTime(hour: 0, minute: 0)!
    }

    static func date(_ text: String) -> LocalDate {
        LocalDate.parse(text) ?? LocalDate(daysSinceEpoch: 0)
    }

    static func alarm(_ id: String = "fajr", at time: String = "05:30", duration: Int = 15,
                      weekdays: Weekdays = Weekdays.everyDay) -> Alarm {
        Alarm(id: id, title: "Morning Prayer", time: self.time(time), durationMinutes: duration, weekdays: weekdays)
    }

    /// Snowy, washing cycle `c-1` since `startedAt` (45 minutes: done at 08:15Z by default).
    static func washingPet(startedAt: String = "2026-11-21T07:30:00Z") -> Pet {
        Pet(id: "snowy", name: "Snowy", cycle: LaundryCycle(id: "c-1", stage: .wash, startedAt: instant(startedAt)))
    }

    /// A state as left by a run at `lastRun` in `zone`.
    static func state(lastRun: String, zone: String = "Europe/Berlin") -> RunState {
        var state = RunState()
        state.lastRunAt = instant(lastRun)
        state.timeZone = zone
        return state
    }

    /// Plans at each of `nows` in `zone` from `state`, the first run after one in `previousZone` (Berlin, both,
    /// unless told): what the runs deliver and record missed, and the state they leave.
    static func runs(_ household: Household, from state: RunState, previousZone: Zone = Fixtures.berlin,
                     zone: Zone = Fixtures.berlin,
                     _ nows: [String]) -> (delivered: [String], missed: [String], state: RunState) {
        var current = state
        var delivered: [String] = []
        var missed: [String] = []
        var lastZone = previousZone
        for now in nows {
            let run = Planner.plan(household, previous: current, now: instant(now), zone: zone, previousZone: lastZone)
            delivered += run.deliveries.map(\.notification.id)
            missed += run.missed.map(\.id)
            current = run.state
            lastZone = zone
        }
        return (delivered, missed, current)
    }

    static func settings(zone: String = "Europe/Berlin") -> Settings {
        var settings = Settings()
        settings.timeZone = zone
        return settings
    }
}

extension UserFileMap {
    /// The same values, from a dictionary (tests build file sets with `mapValues`).
    init(_ dictionary: [UserFile: Value]) {
        self.init()
        for (file, value) in dictionary { self[file] = value }
    }
}
