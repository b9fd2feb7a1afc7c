import XCTest
import Foundation
@testable import NudgeCore

/// The wall-clock rule (docs/promises.md), checked in every zone of the system's tz database around every transition
/// of 2026–2028, against an independent source.
///
/// The rule: a daily wall-clock time on a local date fires at the instant the clock shows it; if it shows
/// it twice (fall back), at the first; if never (spring forward), at the first instant after the gap. No
/// daily occurrence is skipped, none fires twice on one local date.
///
/// Expected instants are NOT asked of nudge's own `Zone`. They come from the TZif files in
/// /usr/share/zoneinfo, read by `TZifFile` (TZifReader.swift), a separate test-only reader: the zone's UT offset is a step function of UTC time, so its
/// local readings are a list of half-open segments `[T_i + o_i, T_(i+1) + o_i)`; a reading L lies in
/// segment i when `L - o_i` falls in `[T_i, T_(i+1))`; the earliest such instant is the expected one, and a
/// reading in no segment lies in a gap whose transition instant `T_j` is the answer. That reader is in turn
/// checked against `zdump -v` (glibc's own reading of the same files) and its footer-rule evaluator against
/// the transitions the files list explicitly. `Zone` reads the same files with its own code, so any
/// difference between the two readers (offsets at a transition, a transition one of them misses) shows up
/// here as a failure that names the zone, the instant, and both offsets.
///
/// Runs: a fixed sample of zones on every `swift test`; every TZif file under /usr/share/zoneinfo (except
/// the `posix/` and `right/` trees) when `NUDGE_ALL_ZONES=1`, which `.ci/run` is meant to export (the full
/// run takes a few seconds). Needs the tzdata package (which `.ci/run` installs) and zdump (libc-bin).
///
/// Documented exceptions (counted and printed, not failures): when the rule itself puts two requested
/// dates' occurrences on one local date, e.g. America/Nuuk, where the last Saturday of March loses
/// 23:00–24:00: that Saturday's 23:30 fires at 00:00 on Sunday, the same local date as Sunday's own 23:30.
/// The check only accepts such a case when the independently computed expected instants do the same.
final class AllZonesWallClockTests: XCTestCase {

    // MARK: - Scope

    static let zoneinfo = "/usr/share/zoneinfo"
    static var exhaustive: Bool { ProcessInfo.processInfo.environment["NUDGE_ALL_ZONES"] == "1" }

    static let sampleZones = [
        "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Africa/Cairo",
        "Asia/Beirut", "America/Nuuk", "Pacific/Chatham", "Africa/Casablanca", "Asia/Tehran",
        "America/Sao_Paulo", "Europe/Dublin",
    ]

    /// Transitions in [2026-01-01T00:00Z, 2029-01-01T00:00Z) select the zones and dates checked.
    static let windowStart = TZifCivil.daysFromCivil(year: 2026, month: 1, day: 1) * 86_400
    static let windowEnd = TZifCivil.daysFromCivil(year: 2029, month: 1, day: 1) * 86_400
    /// Offsets are modelled over a wider span so readings near the window's edges see every neighbour.
    static let modelStart = windowStart - 40 * 86_400
    static let modelEnd = windowEnd + 40 * 86_400

    /// The issue's daily times, as minutes since midnight.
    static let fixedMinutes = [0, 30, 60, 90, 120, 150, 180, 210, 12 * 60, 23 * 60 + 30, 23 * 60 + 59]

    // MARK: - Tests

    /// The sample (always) or every zone (NUDGE_ALL_ZONES=1): WallClock against the TZif-derived rule.
    func testWallClockFollowsTheRuleAroundEveryTransitionOf2026To2028() throws {
        let started = Date()
        let zones = try Self.zonesInScope()
        var totals = RunTotals()
        let twinsByContent = Dictionary(grouping: zones, by: \.data).mapValues { $0.map(\.name) }
        for zone in zones {
            check(zone, twinsByContent: twinsByContent, into: &totals)
        }
        for problem in totals.failures {
            XCTFail(problem)
        }
        if !Self.exhaustive {
            // The sample is chosen for its variety; make sure it still has it (true of tzdata 2026f; if a
            // newer tzdata changes one of these zones, pick another zone with the same feature).
            for name in ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Santiago", "Africa/Cairo",
                         "Asia/Beirut", "America/Nuuk", "Pacific/Chatham", "Europe/Dublin"] {
                XCTAssertEqual(totals.transitionsByZone[name], 6, "\(name): expected 6 transitions in 2026–2028")
            }
            XCTAssertEqual(totals.transitionsByZone["Asia/Tehran"], 0, "Asia/Tehran has had no DST since 2022")
            XCTAssertEqual(totals.transitionsByZone["America/Sao_Paulo"], 0, "America/Sao_Paulo has had no DST since 2019")
            XCTAssertGreaterThan(totals.transitionsByZone["Africa/Casablanca"] ?? 0, 0, "Africa/Casablanca's Ramadan switches")
            XCTAssertEqual(totals.zonesChecked, Self.sampleZones.count)
            XCTAssertGreaterThan(totals.exceptions.count, 0, "America/Nuuk's end-of-day gap should be seen")
        }
        for exception in totals.exceptions {
            print("  documented exception: \(exception)")
        }
        for skipped in totals.skipped {
            print("  skipped zone: \(skipped)")
        }
        let seconds = Date().timeIntervalSince(started)
        print("\(Self.exhaustive ? "AllZones" : "SampleZones"): \(totals.zonesChecked) zones"
              + " (\(totals.zonesWithTransitions) with transitions in 2026–2028, \(totals.transitions) transitions;"
              + " Zone: \(totals.zoneTransitions)),"
              + " \(Self.grouped(totals.occurrences)) occurrences, \(totals.mismatches) mismatches,"
              + " \(totals.failures.count - totals.mismatches) other failures,"
              + " \(totals.exceptions.count) documented exceptions, \(totals.skipped.count) skipped zones,"
              + " \(String(format: "%.1f", seconds)) s")
    }

    /// The independent source verified: the reader's transitions in 2026–2028 equal those `zdump -v` prints
    /// (sample zones always; every zone with NUDGE_ALL_ZONES=1).
    func testTZifReaderAgreesWithZdump() throws {
        let started = Date()
        let zones = try Self.zonesInScope()
        let names = zones.map(\.name)
        let dumped = try Self.zdumpTransitions(names)
        var compared = 0, transitions = 0, failures = 0
        for zone in zones {
            let mine = zone.file.transitions(from: Self.windowStart, to: Self.windowEnd)
            let theirs = dumped[zone.name] ?? []
            compared += 1
            transitions += theirs.count
            if mine != theirs {
                failures += 1
                let onlyMine = mine.filter { !theirs.contains($0) }, onlyTheirs = theirs.filter { !mine.contains($0) }
                XCTFail("\(zone.name): TZif reader and zdump disagree on 2026–2028 transitions.\n"
                        + "  reader only: \(onlyMine.map(\.description))\n  zdump only:  \(onlyTheirs.map(\.description))")
            }
        }
        if !Self.exhaustive {
            XCTAssertEqual(dumped["Europe/Berlin"]?.count, 6)
        }
        print("\(Self.exhaustive ? "AllZones" : "SampleZones") zdump cross-check: \(compared) zones,"
              + " \(transitions) zdump transitions, \(failures) disagreements,"
              + " \(String(format: "%.1f", Date().timeIntervalSince(started))) s")
    }

    /// The footer evaluator verified against the files themselves: in every file whose footer has a DST
    /// rule, the footer alone must reproduce the last four years of transitions the file lists explicitly
    /// (Debian ships "fat" files, which list transitions up to 2037 computed from the same rules).
    func testFooterRulesReproduceTheExplicitTransitionsOfEachFile() throws {
        let zones = try Self.zonesInScope()
        var checked = 0, compared = 0, beyondHorizon = [String]()
        for zone in zones {
            guard let rule = zone.file.footerRule, rule.daylight != nil,
                  let last = zone.file.transitionTimes.last(where: { zone.file.localTimeType(atUTC: $0 - 1) != zone.file.localTimeType(atUTC: $0) })
            else { continue }
            let lastYear = TZifCivil.year(ofUTC: last)
            // zic writes transitions up to 2037 from the zone's last rules, which the footer restates. A zone
            // whose listed changes run past 2037 has one-off rules there (Asia/Gaza and Asia/Hebron: predicted
            // Ramadan switches until 2086) that the footer only takes over from afterwards: nothing to compare.
            guard lastYear == 2037 else {
                beyondHorizon.append("\(zone.name) (last change \(TZifCivil.utcText(last)))")
                continue
            }
            let from = TZifCivil.daysFromCivil(year: lastYear - 3, month: 1, day: 1) * 86_400
            guard from > zone.file.transitionTimes[0] else { continue }
            // Changes only: zic adds a no-op transition at 2^31 - 1 (2038-01-19T03:14:07Z) for 32-bit readers.
            let listed = zone.file.transitionTimes.indices
                .filter { zone.file.transitionTimes[$0] >= from }
                .map { (at: zone.file.transitionTimes[$0], type: zone.file.types[zone.file.transitionTypeIndices[$0]]) }
                .filter { zone.file.localTimeType(atUTC: $0.at - 1) != $0.type }
            var predicted = [(at: Int, type: TZifLocalTimeType)]()
            for year in (lastYear - 4)...(lastYear + 1) {
                for event in rule.events(inYear: year) where event.at >= from && event.at <= last {
                    if rule.localTimeType(atUTC: event.at - 1) != event.type {
                        predicted.append(event)
                    }
                }
            }
            checked += 1
            compared += listed.count
            let listedText = listed.map { "\(TZifCivil.utcText($0.at)) \($0.type)" }
            let predictedText = predicted.sorted { $0.at < $1.at }.map { "\(TZifCivil.utcText($0.at)) \($0.type)" }
            XCTAssertEqual(listedText, predictedText, "\(zone.name): footer \"\(rule)\" vs the file's own transitions")
        }
        if checked == 0 {
            // "Slim" TZif files list no transitions past the last rule change: then only the zdump
            // cross-check verifies the footer evaluator.
            throw XCTSkip("no TZif file lists transitions up to 2037 (slim files?): footer rules are verified by"
                          + " testTZifReaderAgreesWithZdump only")
        }
        print("\(Self.exhaustive ? "AllZones" : "SampleZones") footer check: \(checked) zones with DST footers,"
              + " \(compared) listed transitions reproduced from the footer; not comparable (listed changes past 2037):"
              + " \(beyondHorizon.isEmpty ? "none" : beyondHorizon.joined(separator: ", "))")
    }

    /// Footer parsing on hand-computed cases: every day form, negative and >24 h times, quoted names,
    /// negative DST, permanent DST, default DST offset, and malformed strings.
    func testPosixFooterRulesOnHandComputedCases() throws {
        func switches(_ text: String, _ year: Int) throws -> [String] {
            try TZifPosixRule(parsing: text).events(inYear: year).map { "\(TZifCivil.utcText($0.at)) \($0.type)" }
        }
        func type(_ text: String, _ y: Int, _ m: Int, _ d: Int, _ h: Int, _ min: Int = 0) throws -> String {
            let utc = TZifCivil.daysFromCivil(year: y, month: m, day: d) * 86_400 + h * 3_600 + min * 60
            return try TZifPosixRule(parsing: text).localTimeType(atUTC: utc).description
        }
        // Europe/Berlin: last Sundays of March (02:00 CET) and October (03:00 CEST), both 01:00Z.
        XCTAssertEqual(try switches("CET-1CEST,M3.5.0,M10.5.0/3", 2026),
                       ["2026-03-29T01:00:00Z CEST +02:00 dst", "2026-10-25T01:00:00Z CET +01:00"])
        // Lord Howe: half-hour DST; southern hemisphere, so the end comes first in the year.
        XCTAssertEqual(try switches("<+1030>-10:30<+11>-11,M10.1.0,M4.1.0", 2026),
                       ["2026-04-04T15:00:00Z +1030 +10:30", "2026-10-03T15:30:00Z +11 +11:00 dst"])
        // Santiago: "first Saturday, 24:00" is the following Sunday 00:00.
        XCTAssertEqual(try switches("<-04>4<-03>,M9.1.6/24,M4.1.6/24", 2026),
                       ["2026-04-05T03:00:00Z -04 -04:00", "2026-09-06T04:00:00Z -03 -03:00 dst"])
        // Scoresbysund/Nuuk: a negative time, -1:00 on the last Sunday is 23:00 on the Saturday.
        XCTAssertEqual(try switches("<-02>2<-01>,M3.5.0/-1,M10.5.0/0", 2026),
                       ["2026-03-29T01:00:00Z -01 -01:00 dst", "2026-10-25T01:00:00Z -02 -02:00"])
        // Gaza's form: 50 hours after the 4th Thursday (26 March / 22 October 2026) is the Saturday 02:00.
        XCTAssertEqual(try switches("EET-2EEST,M3.4.4/50,M10.4.4/50", 2026),
                       ["2026-03-28T00:00:00Z EEST +03:00 dst", "2026-10-23T23:00:00Z EET +02:00"])
        // "Jn" never counts 29 February: J60 is 1 March in 2026 and in 2028.
        XCTAssertEqual(try switches("<+03>-3<+04>,J60/0,J300/0", 2028),
                       ["2028-02-29T21:00:00Z +04 +04:00 dst", "2028-10-26T20:00:00Z +03 +03:00"])
        XCTAssertEqual(try switches("<+03>-3<+04>,J60/0,J300/0", 2026),
                       ["2026-02-28T21:00:00Z +04 +04:00 dst", "2026-10-26T20:00:00Z +03 +03:00"])
        // "n" counts from 0 and counts 29 February: day 59 is 1 March in 2026 but 29 February in 2028.
        XCTAssertEqual(try switches("<+03>-3<+04>,59/0,299/0", 2026),
                       ["2026-02-28T21:00:00Z +04 +04:00 dst", "2026-10-26T20:00:00Z +03 +03:00"])
        XCTAssertEqual(try switches("<+03>-3<+04>,59/0,299/0", 2028),
                       ["2028-02-28T21:00:00Z +04 +04:00 dst", "2028-10-25T20:00:00Z +03 +03:00"])
        // Negative DST (Europe/Dublin): standard time is IST (+1) in summer, "daylight" GMT in winter.
        XCTAssertEqual(try type("IST-1GMT0,M10.5.0,M3.5.0/1", 2026, 7, 1, 12), "IST +01:00")
        XCTAssertEqual(try type("IST-1GMT0,M10.5.0,M3.5.0/1", 2026, 12, 1, 12), "GMT +00:00 dst")
        XCTAssertEqual(try switches("IST-1GMT0,M10.5.0,M3.5.0/1", 2026),
                       ["2026-03-29T01:00:00Z IST +01:00", "2026-10-25T01:00:00Z GMT +00:00 dst"])
        // RFC 8536's permanent DST: daylight time all year, also across New Year.
        for (m, d, h) in [(1, 1, 5), (1, 1, 4), (7, 1, 0), (12, 31, 23)] {
            XCTAssertEqual(try type("EST5EDT,0/0,J365/25", 2026, m, d, h), "EDT -04:00 dst", "\(m)-\(d) \(h)h")
        }
        // Default DST offset: one hour ahead of standard time.
        XCTAssertEqual(try type("EST5EDT,M3.2.0,M11.1.0", 2026, 7, 1, 12), "EDT -04:00 dst")
        XCTAssertEqual(try type("EST5EDT,M3.2.0,M11.1.0", 2026, 3, 8, 6, 59), "EST -05:00")
        XCTAssertEqual(try type("EST5EDT,M3.2.0,M11.1.0", 2026, 3, 8, 7), "EDT -04:00 dst")
        // Seconds in offsets and a fixed zone.
        XCTAssertEqual(try type("<+0330>-3:30", 2026, 6, 1, 0), "+0330 +03:30")
        XCTAssertEqual(try type("LMT-0:53:28", 2026, 6, 1, 0), "LMT +00:53:28")
        // Malformed.
        for bad in ["", "CET", "CE-1", "<+1>-1", "CET-1CEST", "CET-1CEST,M13.1.0,M10.5.0", "CET-1CEST,M3.6.0,M10.5.0",
                    "CET-1CEST,J0,J100", "CET-1CEST,366,100", "CET-1CEST,M3.5.0/168,M10.5.0", "CET-1CEST,M3.5.0,M10.5.0x",
                    "CET-25"] {
            XCTAssertThrowsError(try TZifPosixRule(parsing: bad), "\"\(bad)\" should be rejected")
        }
        print("POSIX footer rules: hand-computed cases for M/J/n days, negative and >24 h times, negative and"
              + " permanent DST; 12 malformed strings rejected")
    }

    // MARK: - The check for one zone

    /// Everything measured over a run.
    struct RunTotals {
        var zonesChecked = 0
        var zonesWithTransitions = 0
        var transitions = 0
        var zoneTransitions = 0
        var occurrences = 0
        var mismatches = 0
        var failures = [String]()
        var exceptions = [String]()
        var skipped = [String]()
        var transitionsByZone = [String: Int]()
    }

    /// How a local reading maps to instants, by the independent model.
    enum Kind: String { case once, fold, gap }

    struct Occurrence {
        let day: Int          // requested local date, days since 1970
        let minute: Int       // requested time, minutes since midnight
        let expected: Int     // UTC seconds, from the TZif model
        let kind: Kind
        let actual: Int       // UTC seconds, from WallClock
    }

    func check(_ zone: ZoneFile, twinsByContent: [Data: [String]], into totals: inout RunTotals) {
        let name = zone.name
        let model = OffsetModel(file: zone.file, from: Self.modelStart, to: Self.modelEnd)
        let windowChanges = model.changes.filter { $0.at >= Self.windowStart && $0.at < Self.windowEnd }
        guard let timeZone = Fixtures.zoneNamed(name) else {
            let twins = twinsByContent[zone.data, default: []].filter { $0 != name && Fixtures.zoneNamed($0) != nil }
            totals.skipped.append("\(name): nudge's Zone cannot read this file"
                                  + " (\(windowChanges.count) offset changes in 2026–2028; same file content as "
                                  + (twins.isEmpty ? "no other zone" : twins.joined(separator: ", ")) + ")")
            return
        }
        let clock = WallClock(zone: timeZone)
        // The planner's clock reads the offsets once into an OffsetTable; it must answer exactly like `clock`.
        let tabled = WallClock(zone: timeZone, reading: Date(timeIntervalSince1970: Double(Self.windowStart - 3 * 86_400))
                                ..< Date(timeIntervalSince1970: Double(Self.windowEnd + 3 * 86_400)))
        totals.zonesChecked += 1
        totals.transitionsByZone[name] = windowChanges.count
        totals.transitions += windowChanges.count
        if !windowChanges.isEmpty { totals.zonesWithTransitions += 1 }

        // Zone's offsets at each transition, before anything else: a difference between the two readers of
        // the files is named as such.
        for change in windowChanges {
            let zoneBefore = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(change.at - 1)))
            let zoneAfter = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(change.at)))
            if zoneBefore != change.before || zoneAfter != change.after {
                totals.failures.append("\(name): Zone reads \(Self.zoneinfo) differently at the"
                    + " transition \(TZifCivil.utcText(change.at)): files say \(TZifCivil.offsetText(change.before))"
                    + " -> \(TZifCivil.offsetText(change.after)), Zone says \(TZifCivil.offsetText(zoneBefore))"
                    + " -> \(TZifCivil.offsetText(zoneAfter))")
            }
        }

        // And the other way round: every offset change Zone knows of in the window must be in the files too.
        var zoneChanges = [Int]()
        var cursor = Self.windowStart - 1
        while let next = timeZone.nextTransition(afterUTC: cursor), next < Self.windowEnd, zoneChanges.count < 1_000 {
            zoneChanges.append(next)
            cursor = next
        }
        let fileChangeTimes = Set(windowChanges.map(\.at))
        for at in zoneChanges where !fileChangeTimes.contains(at) {
            totals.failures.append("\(name): Zone reads \(Self.zoneinfo) differently: Zone changes the"
                + " offset at \(TZifCivil.utcText(at)) (to \(TZifCivil.offsetText(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(at))))))"
                + ", the files have no change there (offset \(TZifCivil.offsetText(model.offset(atUTC: at))))")
        }
        totals.zoneTransitions += zoneChanges.count

        // Dates: each local date within one day of a transition (on either side of it), with the fixed
        // times plus the transition's own edges; and the 1st of every month with the fixed times, which
        // also covers zones without transitions.
        var minutesByDay = [Int: Set<Int>]()
        for change in windowChanges {
            let beforeReading = change.at - 1 + change.before, afterReading = change.at + change.after
            let firstDay = TZifCivil.floorDiv(min(beforeReading, afterReading), 86_400) - 1
            let lastDay = TZifCivil.floorDiv(max(beforeReading, afterReading), 86_400) + 1
            let edges = [beforeReading + 1, afterReading, (beforeReading + 1 + afterReading) / 2,
                         max(beforeReading + 1, afterReading) - 60]
                .map { TZifCivil.floorDiv($0 - TZifCivil.floorDiv($0, 86_400) * 86_400, 60) }
            for day in firstDay...lastDay {
                minutesByDay[day, default: Set(Self.fixedMinutes)].formUnion(edges)
            }
        }
        for year in 2026...2028 {
            for month in 1...12 {
                minutesByDay[TZifCivil.daysFromCivil(year: year, month: month, day: 1), default: []]
                    .formUnion(Self.fixedMinutes)
            }
        }

        var occurrences = [Occurrence]()
        for day in minutesByDay.keys.sorted() {
            let civil = TZifCivil.civil(fromDays: day)
            guard let date = LocalDate(year: civil.year, month: civil.month, day: civil.day) else {
                totals.failures.append("\(name): no LocalDate for \(TZifCivil.dateText(ofDay: day))")
                continue
            }
            for minute in minutesByDay[day]!.sorted() {
                let local = day * 86_400 + minute * 60
                guard let time = WallTime(hour: minute / 60, minute: minute % 60),
                      let answer = model.expectedInstant(forLocal: local)
                else {
                    totals.failures.append("\(name): no expected instant for \(TZifCivil.readingText(local))")
                    continue
                }
                let (expected, kind) = answer
                // The model's answer must itself obey the rule (guards the test, not the product).
                if let problem = model.ruleViolation(local: local, instant: expected, kind: kind) {
                    totals.failures.append("\(name) \(TZifCivil.readingText(local)): test model broken: \(problem)")
                }
                let actualDate = clock.instant(on: date, at: time)
                let tabledDate = tabled.instant(on: date, at: time)
                if tabledDate != actualDate {
                    totals.failures.append("\(name) \(TZifCivil.readingText(local)): the offset table gives"
                        + " \(tabledDate.timeIntervalSince1970), the zone \(actualDate.timeIntervalSince1970)")
                }
                let actualSeconds = actualDate.timeIntervalSince1970
                let actual = Int(actualSeconds.rounded(.down))
                let occurrence = Occurrence(day: day, minute: minute, expected: expected, kind: kind, actual: actual)
                occurrences.append(occurrence)
                totals.occurrences += 1
                if Double(actual) != actualSeconds || actual != expected {
                    totals.mismatches += 1
                    totals.failures.append(describeMismatch(name, occurrence, actualSeconds, model, timeZone))
                }
            }
        }

        // Per time of day: consecutive dates give strictly increasing instants, and no two requested dates
        // fire on one local date — unless the independent expectation does the same (rule-forced).
        let byMinute = Dictionary(grouping: occurrences, by: \.minute)
        for minute in byMinute.keys.sorted() {
            let list = byMinute[minute]!.sorted { $0.day < $1.day }
            for (earlier, later) in zip(list, list.dropFirst()) where later.day == earlier.day + 1 {
                guard later.actual <= earlier.actual else { continue }
                let what = "\(name) \(Self.hhmm(minute)): \(TZifCivil.dateText(ofDay: earlier.day)) fires at"
                    + " \(TZifCivil.utcText(earlier.actual)), \(TZifCivil.dateText(ofDay: later.day)) at"
                    + " \(TZifCivil.utcText(later.actual)) — not later"
                if later.expected <= earlier.expected {
                    totals.exceptions.append(what + " (forced: \(describeForced(earlier, model)))")
                } else {
                    totals.failures.append(what + "; the rule gives \(TZifCivil.utcText(earlier.expected))"
                                           + " then \(TZifCivil.utcText(later.expected))")
                }
            }
            let byFiredDay = Dictionary(grouping: list) { model.localDay(ofUTC: $0.actual) }
            for firedDay in byFiredDay.keys.sorted() {
                let same = byFiredDay[firedDay]!
                guard same.count > 1 else { continue }
                let requested = same.map { TZifCivil.dateText(ofDay: $0.day) }.joined(separator: " and ")
                let what = "\(name) \(Self.hhmm(minute)): the occurrences for \(requested) both fire on local date"
                    + " \(TZifCivil.dateText(ofDay: firedDay))"
                    + " (at " + same.map { model.readingText(ofUTC: $0.actual) }.joined(separator: ", ") + ")"
                if Set(same.map { model.localDay(ofUTC: $0.expected) }).count == 1 {
                    let moved = same.filter { model.localDay(ofUTC: $0.expected) != $0.day }
                    totals.exceptions.append(what + "; forced: " + moved.map { describeForced($0, model) }.joined(separator: "; "))
                } else {
                    totals.failures.append(what + "; the rule puts them on different local dates")
                }
            }
        }
    }

    /// Why the rule moves an occurrence, in words.
    func describeForced(_ occurrence: Occurrence, _ model: OffsetModel) -> String {
        let local = occurrence.day * 86_400 + occurrence.minute * 60
        return "\(TZifCivil.readingText(local)) \(occurrence.kind == .gap ? "does not exist (gap)" : "exists")"
            + " and fires at \(model.readingText(ofUTC: occurrence.expected))"
    }

    func describeMismatch(_ name: String, _ occurrence: Occurrence, _ actualSeconds: Double,
                          _ model: OffsetModel, _ timeZone: Zone) -> String {
        let local = occurrence.day * 86_400 + occurrence.minute * 60
        func zoneOffset(_ utc: Int) -> String {
            TZifCivil.offsetText(timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(utc))))
        }
        let offsetsAgree = [occurrence.expected - 1, occurrence.expected, occurrence.actual - 1, occurrence.actual]
            .allSatisfy { timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double($0))) == model.offset(atUTC: $0) }
        let verdict = offsetsAgree
            ? "Zone and the test reader agree on the offsets here: WallClock is wrong"
            : "Zone's offsets differ from the test reader's here: a TZif reading difference"
        return "\(name) \(TZifCivil.dateText(ofDay: occurrence.day)) \(Self.hhmm(occurrence.minute)) (\(occurrence.kind.rawValue)):"
            + " expected \(TZifCivil.utcText(occurrence.expected)) (\(model.readingText(ofUTC: occurrence.expected))),"
            + " WallClock gave \(actualSeconds == Double(occurrence.actual) ? TZifCivil.utcText(occurrence.actual) : String(actualSeconds))"
            + " (files: \(model.readingText(ofUTC: occurrence.actual)); Zone's offset there \(zoneOffset(occurrence.actual)))"
            + " for the reading \(TZifCivil.readingText(local)) — \(verdict)"
    }

    static func hhmm(_ minute: Int) -> String {
        String(format: "%02d:%02d", minute / 60, minute % 60)
    }

    static func grouped(_ value: Int) -> String {
        var text = String(value), result = ""
        while text.count > 3 {
            result = "," + text.suffix(3) + result
            text = String(text.dropLast(3))
        }
        return text + result
    }

    // MARK: - The independent model of one zone

    /// The zone's UT offset as a step function over [from, to), from the TZif file alone.
    struct OffsetModel {
        struct Change {
            let at: Int
            let before: Int
            let after: Int
        }

        let file: TZifFile
        /// Offset changes (designation- or isdst-only changes dropped), ascending.
        let changes: [Change]
        /// Offset before the first change.
        let initialOffset: Int

        init(file: TZifFile, from: Int, to: Int) {
            self.file = file
            changes = file.transitions(from: from, to: to)
                .filter { $0.before.utOffset != $0.after.utOffset }
                .map { Change(at: $0.at, before: $0.before.utOffset, after: $0.after.utOffset) }
            initialOffset = file.utOffset(atUTC: from)
        }

        func offset(atUTC utc: Int) -> Int {
            file.utOffset(atUTC: utc)
        }

        func localDay(ofUTC utc: Int) -> Int {
            TZifCivil.floorDiv(utc + offset(atUTC: utc), 86_400)
        }

        /// "2026-03-29T03:00:00+02:00".
        func readingText(ofUTC utc: Int) -> String {
            let offset = offset(atUTC: utc)
            return TZifCivil.readingText(utc + offset) + TZifCivil.offsetText(offset)
        }

        /// The rule's instant for the local reading `local` (local seconds since 1970), by segments:
        /// segment i covers UTC [T_i, T_(i+1)) at offset o_i and shows readings [T_i + o_i, T_(i+1) + o_i).
        func expectedInstant(forLocal local: Int) -> (Int, Kind)? {
            let starts = [Int.min] + changes.map(\.at)
            let offsets = [initialOffset] + changes.map(\.after)
            var valid = [Int]()
            for index in starts.indices {
                let utc = local - offsets[index]
                let end = index + 1 < starts.count ? starts[index + 1] : Int.max
                if utc >= starts[index], utc < end {
                    valid.append(utc)
                }
            }
            if let first = valid.min() {
                return (first, valid.count > 1 ? .fold : .once)
            }
            // A gap: between the last reading of segment j-1 and the first of segment j.
            for index in starts.indices.dropFirst() where starts[index] + offsets[index - 1] <= local
                && local < starts[index] + offsets[index] {
                return (starts[index], .gap)
            }
            return nil
        }

        /// A description of how `instant` breaks the rule for `local`, or nil if it obeys it.
        func ruleViolation(local: Int, instant: Int, kind: Kind) -> String? {
            let shown = instant + offset(atUTC: instant)
            switch kind {
            case .once, .fold:
                if shown != local { return "shows \(TZifCivil.readingText(shown))" }
                // No earlier instant within a day shows the same reading.
                for change in changes where change.at <= instant && change.at > instant - 86_400 {
                    let earlier = local - change.before
                    if earlier < change.at, earlier < instant, offset(atUTC: earlier) == change.before {
                        return "an earlier instant \(TZifCivil.utcText(earlier)) shows it too"
                    }
                }
            case .gap:
                let before = instant - 1 + offset(atUTC: instant - 1)
                if !(before < local && shown > local) {
                    return "not the end of a gap around it (\(TZifCivil.readingText(before)) then \(TZifCivil.readingText(shown)))"
                }
            }
            return nil
        }
    }

    // MARK: - Zone files

    struct ZoneFile {
        let name: String
        let data: Data
        let file: TZifFile
    }

    /// The sample zones, or every TZif file under /usr/share/zoneinfo outside posix/ and right/ (each name
    /// checked on its own, since links and copies are separate names to `Fixtures.zoneNamed`).
    static func zonesInScope() throws -> [ZoneFile] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: zoneinfo, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TZifError(description: "\(zoneinfo) is missing: install the tzdata package (.ci/run does)")
        }
        if !exhaustive {
            return try sampleZones.map { name in
                do {
                    guard let data = FileManager.default.contents(atPath: zoneinfo + "/" + name) else {
                        throw TZifError(description: "cannot read \(zoneinfo)/\(name)")
                    }
                    return ZoneFile(name: name, data: data, file: try TZifFile(data: data))
                } catch {
                    throw TZifError(description: "\(name): \(error)")
                }
            }
        }
        var result = [ZoneFile]()
        var unreadable = [String]()
        for name in try allFileNames(under: zoneinfo, relative: "") {
            guard let data = FileManager.default.contents(atPath: zoneinfo + "/" + name), TZifFile.hasMagic(data) else {
                continue   // zone.tab, iso3166.tab, tzdata.zi, leapseconds, ...
            }
            do {
                result.append(ZoneFile(name: name, data: data, file: try TZifFile(data: data)))
            } catch {
                unreadable.append("\(name): \(error)")
            }
        }
        if !unreadable.isEmpty {
            throw TZifError(description: "TZif files the reader cannot read:\n" + unreadable.joined(separator: "\n"))
        }
        return result
    }

    private static func allFileNames(under root: String, relative: String) throws -> [String] {
        var names = [String]()
        let directory = relative.isEmpty ? root : root + "/" + relative
        for entry in try FileManager.default.contentsOfDirectory(atPath: directory).sorted() {
            let name = relative.isEmpty ? entry : relative + "/" + entry
            if relative.isEmpty, entry == "posix" || entry == "right" { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root + "/" + name, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                names += try allFileNames(under: root, relative: name)
            } else {
                names.append(name)
            }
        }
        return names
    }

    // MARK: - zdump

    /// Transitions in 2026–2028 per zone as `zdump -v -c 2026,2029` prints them: each change is a pair of
    /// lines one second apart ("... UT = <local> <abbr> isdst=<0|1> gmtoff=<seconds>").
    static func zdumpTransitions(_ names: [String]) throws -> [String: [TZifTransition]] {
        let candidates = ["/usr/bin/zdump", "/usr/sbin/zdump", "/bin/zdump"]
        guard let zdump = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw TZifError(description: "zdump not found (Debian: package libc-bin)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: zdump)
        process.arguments = ["-v", "-c", "2026,2029"] + names
        var environment = ProcessInfo.processInfo.environment
        environment["TZDIR"] = zoneinfo
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TZifError(description: "zdump exited with \(process.terminationStatus)")
        }
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        var lines = [String: [(utc: Int, type: TZifLocalTimeType)]]()
        for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            // name dow mon day hh:mm:ss year UT = dow mon day hh:mm:ss year abbr isdst=n gmtoff=n
            guard fields.count == 16, fields[6] == "UT", fields[7] == "=",
                  let month = months.firstIndex(of: fields[2]), let day = Int(fields[3]), let year = Int(fields[5]),
                  fields[14].hasPrefix("isdst="), fields[15].hasPrefix("gmtoff="),
                  let isDST = Int(fields[14].dropFirst(6)), let offset = Int(fields[15].dropFirst(7))
            else { continue }
            let clock = fields[4].split(separator: ":").compactMap { Int($0) }
            guard clock.count == 3 else { continue }
            let utc = TZifCivil.daysFromCivil(year: year, month: month + 1, day: day) * 86_400
                + clock[0] * 3_600 + clock[1] * 60 + clock[2]
            lines[fields[0], default: []].append((utc, TZifLocalTimeType(utOffset: offset, isDST: isDST != 0, abbreviation: fields[13])))
        }
        var result = [String: [TZifTransition]]()
        for (name, list) in lines {
            var transitions = [TZifTransition]()
            for (before, after) in zip(list, list.dropFirst()) where after.utc == before.utc + 1 && before.type != after.type {
                transitions.append(TZifTransition(at: after.utc, before: before.type, after: after.type))
            }
            result[name] = transitions
        }
        return result
    }
}
