import Foundation
import XCTest

/// One run at a time per data directory (docs/design.md, "The lock") and exactly once (docs/promises.md) when several
/// nudge processes start at the same moment: cron overlapping a slow run, a person typing `nudge run`, `nudge play` or
/// `nudge laundry start` while cron runs.
final class ConcurrencyTests: DataDirectoryTestCase {
    private let processCount = 8

    /// Five alarms at 08:00 and three washes completing at 08:00, an achievement at 07:58 and one at 08:00.
    private var dueAt0800: [String] {
        (0..<5).map { "alarm.prayer:a\($0):2026-11-21" }
            + ["p0", "p1", "p2"].map { "laundry.washComplete:\($0):c-\($0)" }
            + ["streak.achievement:ach0:unlocked", "streak.achievement:ach1:unlocked"]
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try dir.write("settings.json", Fixture.settings())
        let alarms = (0..<5).map { "{ \"id\": \"a\($0)\", \"title\": \"Prayer \($0)\", \"time\": \"08:00\" }" }
        try dir.write("alarms.json", "{ \"alarms\": [\n" + alarms.joined(separator: ",\n") + "\n] }\n")
        let pets = ["p0", "p1", "p2"].map { id in
            "{ \"id\": \"\(id)\", \"washMinutes\": 45, \"cycle\": { \"id\": \"c-\(id)\", \"stage\": \"wash\", "
                + "\"startedAt\": \"2026-11-21T07:15:00Z\" } }"
        }
        try dir.write("laundry.json", "{ \"pets\": [\n" + pets.joined(separator: ",\n") + "\n] }\n")
        try dir.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle", "streak": 0 } ],
              "achievements": [
                { "id": "ach0", "title": "Early", "description": "first", "unlockedAt": "2026-11-21T07:58:00Z" },
                { "id": "ach1", "title": "Late", "description": "second", "unlockedAt": "2026-11-21T08:00:00Z" } ] }

            """)
        // Not the first run ever: state.json exists and the previous run was at 07:30.
        assertRun(try dir.run(at: "2026-11-21T07:30:00Z"), delivers: [])
    }

    /// Starts every argument list at once (all processes are running before the first is waited for).
    private func startTogether(_ argumentLists: [[String]]) throws -> [NudgeResult] {
        let processes = try argumentLists.map { try NudgeProcess($0, workingDirectory: dir.url) }
        return try processes.map { try $0.waitForExit(timeout: 60) }
    }

    private func runArguments(at now: String, _ extra: String...) -> [String] {
        ["run", "--json", "--data", dir.path, "--now", now] + extra
    }

    /// Each id once in the outbox, and once over all the processes' stdout.
    private func assertDeliveredOnce(_ ids: [String], by results: [NudgeResult],
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let printed = results.flatMap { $0.deliveredIDs(file: file, line: line) }
        let context = results.map(\.summary).joined(separator: "\n")
        XCTAssertEqual(printed.sorted(), ids.sorted(), "stdout of all runs\n\(context)", file: file, line: line)
        XCTAssertEqual(try dir.outboxIDs().sorted(), ids.sorted(), "outbox.jsonl", file: file, line: line)
        XCTAssertEqual(Set(try dir.outboxIDs()).count, try dir.outboxIDs().count, "an id twice in the outbox",
                       file: file, line: line)
    }

    func testEightRunsAtOnceWithoutWaitExit0Or75AndDeliverEachDueIDOnce() throws {
        let results = try startTogether(Array(repeating: runArguments(at: "2026-11-21T08:00:00Z"),
                                              count: processCount))
        for result in results {
            XCTAssertTrue([0, 75].contains(result.status), result.summary)
            if result.status == 75 {
                XCTAssertEqual(result.stdout, "", result.summary)
                XCTAssertEqual(result.stderrLines.count, 1, "75 gives a one-line message\n\(result.summary)")
                XCTAssertTrue(result.stderr.contains(dir.path), result.summary)
            }
        }
        XCTAssertGreaterThanOrEqual(results.filter { $0.status == 0 }.count, 1)
        try assertDeliveredOnce(dueAt0800, by: results)
        print("concurrency without --wait: exit codes \(results.map(\.status))")

        // And nothing is left to deliver.
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
    }

    func testEightRunsAtOnceWithWaitAllExit0AndDeliverEachDueIDOnce() throws {
        let results = try startTogether(Array(repeating: runArguments(at: "2026-11-21T08:00:00Z", "--wait", "10"),
                                              count: processCount))
        for result in results {
            XCTAssertEqual(result.status, 0, result.summary)
            XCTAssertEqual(result.stderr, "", result.summary)
        }
        try assertDeliveredOnce(dueAt0800, by: results)
        assertRun(try dir.run(at: "2026-11-21T08:01:00Z"), delivers: [])
    }

    /// Five minutes in a row, each with its own due alarms, eight racing runs per minute.
    func testRacingRunsMinuteAfterMinuteNeverRepeatOrLose() throws {
        let alarms = (0..<5).flatMap { minute in
            (0..<4).map { "{ \"id\": \"m\(minute)x\($0)\", \"title\": \"Prayer\", \"time\": \"09:0\(minute)\" }" }
        }
        try dir.write("alarms.json", "{ \"alarms\": [\n" + alarms.joined(separator: ",\n") + "\n] }\n")
        let catchUp = try dir.run(at: "2026-11-21T08:59:00Z")
        XCTAssertEqual(catchUp.status, 0, catchUp.summary)
        XCTAssertEqual(catchUp.deliveredIDs().sorted(), dueAt0800.filter { !$0.hasPrefix("alarm") }.sorted())
        let before = try dir.outboxIDs()

        var all: [NudgeResult] = []
        for minute in 0..<5 {
            let now = "2026-11-21T09:0\(minute):00Z"
            let wait = minute % 2 == 0 ? ["--wait", "10"] : []
            let results = try startTogether(Array(repeating: runArguments(at: now) + wait, count: processCount))
            for result in results {
                XCTAssertTrue(result.status == 0 || (wait.isEmpty && result.status == 75), result.summary)
            }
            let due = (0..<4).map { "alarm.prayer:m\(minute)x\($0):2026-11-21" }
            XCTAssertEqual(results.flatMap { $0.deliveredIDs() }.sorted(), due.sorted(), "minute \(minute)")
            all += results
        }
        let delivered = try dir.outboxIDs().dropFirst(before.count)
        XCTAssertEqual(delivered.count, 20)
        XCTAssertEqual(Set(delivered).count, 20, "an id twice in the outbox")
    }

    /// Runs with different clocks racing (a late cron job and the next one): whichever order the lock gives
    /// them, including the clock going backwards between two runs, each due id is delivered once.
    func testRacingRunsWithDifferentNowDeliverEachOnce() throws {
        let alarms = (0..<8).map { "{ \"id\": \"t\($0)\", \"title\": \"Prayer\", \"time\": \"09:0\($0)\" }" }
        try dir.write("alarms.json", "{ \"alarms\": [\n" + alarms.joined(separator: ",\n") + "\n] }\n")
        let catchUp = try dir.run(at: "2026-11-21T08:59:00Z")
        XCTAssertEqual(catchUp.status, 0, catchUp.summary)
        XCTAssertEqual(catchUp.deliveredIDs().sorted(), dueAt0800.filter { !$0.hasPrefix("alarm") }.sorted())
        let before = try dir.outboxIDs()

        let results = try startTogether((0..<processCount).map {
            runArguments(at: "2026-11-21T09:0\(($0 * 5) % 8):30Z", "--wait", "10")
        })
        for result in results {
            XCTAssertEqual(result.status, 0, result.summary)
        }
        let due = (0..<8).map { "alarm.prayer:t\($0):2026-11-21" }
        XCTAssertEqual(results.flatMap { $0.deliveredIDs() }.sorted(), due.sorted(),
                       results.map(\.summary).joined(separator: "\n"))
        XCTAssertEqual(Array(try dir.outboxIDs().dropFirst(before.count)).sorted(), due.sorted())
        assertRun(try dir.run(at: "2026-11-21T09:10:00Z"), delivers: [])
    }

    /// `nudge play` and `nudge laundry start` edit user files under the same lock while runs race them: no edit
    /// is lost, and every run still delivers exactly once.
    func testPlayAndLaundryStartRacingRunsLoseNoEdit() throws {
        let plays = (0..<10).map { String(format: "2026-11-21T07:%02d:00Z", 40 + $0) }
        var lists: [[String]] = []
        for (index, at) in plays.enumerated() {
            lists.append(["play", "wordle", "--at", at, "--data", dir.path, "--now", "2026-11-21T08:00:00Z"])
            if index < 3 {
                lists.append(["laundry", "start", "p\(index)", "dry", "--data", dir.path,
                              "--now", "2026-11-21T08:00:00Z"])
            }
            if index % 2 == 0 {
                lists.append(runArguments(at: "2026-11-21T08:00:00Z", "--wait", "10"))
            } else {
                lists.append(runArguments(at: "2026-11-21T08:00:00Z"))
            }
        }
        let results = try startTogether(lists)
        for result in results {
            if result.arguments.first == "run" && !result.arguments.contains("--wait") {
                XCTAssertTrue([0, 75].contains(result.status), result.summary)
            } else {
                XCTAssertEqual(result.status, 0, result.summary)
            }
        }

        // Every play is in streaks.json.
        let streaks = try dir.json("streaks.json")
        let recorded = (streaks["plays"] as? [[String: Any]] ?? []).compactMap { $0["at"] as? String }
        XCTAssertEqual(recorded.sorted(), plays, "a play was lost")
        // The user's other keys survived every rewrite.
        XCTAssertEqual((streaks["achievements"] as? [Any])?.count, 2)
        // Every laundry start is in laundry.json: each pet now dries, from 08:00 (the cycle id is kept).
        let pets = try dir.json("laundry.json")["pets"] as? [[String: Any]] ?? []
        XCTAssertEqual(pets.count, 3)
        for pet in pets {
            let cycle = pet["cycle"] as? [String: Any]
            XCTAssertEqual(cycle?["stage"] as? String, "dry", "\(pet)")
            XCTAssertEqual(cycle?["startedAt"] as? String, "2026-11-21T08:00:00Z", "\(pet)")
        }
        // Each run saw the wash either still under way or already moved on; whichever, nothing twice, and the
        // alarms and achievements (untouched by the edits) exactly once.
        let outbox = try dir.outboxIDs()
        XCTAssertEqual(Set(outbox).count, outbox.count, "an id twice in the outbox: \(outbox)")
        for id in dueAt0800 where !id.hasPrefix("laundry") {
            XCTAssertEqual(outbox.filter { $0 == id }.count, 1, "\(id) in \(outbox)")
        }

        // The edits count: the dryers complete at 09:00 (dryMinutes defaults to 60) and are delivered then.
        let later = try dir.run(at: "2026-11-21T09:00:00Z")
        XCTAssertEqual(later.status, 0, later.summary)
        XCTAssertEqual(later.deliveredIDs().filter { $0.hasPrefix("laundry.dryComplete") }.sorted(),
                       ["p0", "p1", "p2"].map { "laundry.dryComplete:\($0):c-\($0)" })
    }
}
