import Foundation
import XCTest
@testable import nudge
#if canImport(Glibc)
import Glibc
#endif

/// Completion of what only the data directory knows: pets, games, trips and the ids of recent deliveries, offered
/// by the real bash, zsh and fish through `nudge complete-values`, which answers fast and never says a word on
/// the line being typed.
final class HouseholdCompletionTests: XCTestCase {
    private var household: TemporaryDataDirectory!
    private var other: TemporaryDataDirectory!
    private var broken: TemporaryDataDirectory!
    private var scratch: TemporaryDataDirectory!

    private let wash = "laundry.washComplete:snowy:c-1"
    private let fajr = "alarm.prayer:fajr:2026-11-21"
    private var snoozedWash: String { wash + ":snooze-1" }

    override func setUpWithError() throws {
        try super.setUpWithError()
        household = try TemporaryDataDirectory(label: "nudge-household")
        other = try TemporaryDataDirectory(label: "nudge-other")
        broken = try TemporaryDataDirectory(label: "nudge-broken")
        scratch = try TemporaryDataDirectory(label: "nudge-shells")
        try household.write("settings.json", Fixture.settings())
        try household.write("laundry.json", """
            { "pets": [ { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60,
                          "cycle": { "id": "c-1", "stage": "wash", "startedAt": "2026-11-21T07:15:00Z" } },
                        { "id": "rex", "name": "Rex", "washMinutes": 30, "dryMinutes": 40 } ] }

            """)
        try household.write("alarms.json", Fixture.alarm(time: "08:00"))
        try household.write("streaks.json", """
            { "games": [ { "id": "wordle", "name": "Wordle" }, { "id": "connections", "name": "Connections" } ] }

            """)
        try household.write("trips.json", """
            { "trips": [ { "id": "office", "destination": "Office", "arriveBy": "08:45", "weekdays": ["mon"],
                           "travelMinutes": 25 },
                         { "id": "dentist", "destination": "Dentist", "arriveAt": "2026-11-24T14:30:00Z",
                           "travelMinutes": 20 } ] }

            """)
        // Fajr and Snowy's wash are delivered at 08:00; the wash, snoozed, again at 08:12.
        for now in ["2026-11-21T07:59:00Z", "2026-11-21T08:00:00Z"] {
            XCTAssertEqual(try household.run(at: now).status, 0)
        }
        XCTAssertEqual(try household.nudge("snooze", now: "2026-11-21T08:02:00Z", wash).status, 0)
        XCTAssertEqual(try household.run(at: "2026-11-21T08:12:00Z").status, 0)
        XCTAssertEqual(try household.outboxIDs(), [fajr, wash, snoozedWash])
        try other.write("laundry.json",
                        Fixture.laundry(washStartedAt: nil).replacingOccurrences(of: "snowy", with: "biscuit"))
        try broken.write("laundry.json", "{ \"pets\": [ { \"id\": \"snowy\", \n")
    }

    override func tearDown() {
        [household, other, broken, scratch].forEach { $0?.remove() }
        super.tearDown()
    }

    // MARK: - The hidden command

    func testCompleteValuesPrintsTheIdsOfEachKindOneALineAndDeliveriesNewestFirst() throws {
        XCTAssertEqual(try values("pets"), ["snowy", "rex"])
        XCTAssertEqual(try values("games"), ["wordle", "connections"])
        XCTAssertEqual(try values("trips"), ["office", "dentist"])
        // The delivered ids newest first, then their sources as written in the files (docs/design.md, "Acting on a delivery": `act fajr …`).
        XCTAssertEqual(try values("deliveries"), [snoozedWash, wash, fajr, "snowy", "fajr"])
        let fromEnvironment = try NudgeProcess.run(["complete-values", "pets"], workingDirectory: scratch.url,
                                                   environment: ["NUDGE_DATA": household.path])
        XCTAssertEqual(fromEnvironment.stdoutLines, ["snowy", "rex"], fromEnvironment.summary)
    }

    /// A completion has no place for messages: whatever is wrong, nothing is printed and the exit is 0.
    func testCompleteValuesSaysNothingAboutABrokenOrMissingFileOrDirectoryOrAnUnknownKind() throws {
        let cases: [[String]] = [
            ["complete-values", "pets", "--data", broken.path],
            ["complete-values", "games", "--data", broken.path],
            ["complete-values", "deliveries", "--data", broken.path],
            ["complete-values", "pets", "--data", broken.fileURL("nowhere").path],
            ["complete-values", "pets", "--data", broken.fileURL("laundry.json").path],
            ["complete-values", "frobs", "--data", household.path],
            ["complete-values", "pets"],
        ]
        for arguments in cases {
            let result = try NudgeProcess.run(arguments, workingDirectory: scratch.url)
            XCTAssertEqual(result.status, 0, result.summary)
            XCTAssertEqual(result.stdout, "", result.summary)
            XCTAssertEqual(result.stderr, "", result.summary)
        }
    }

    /// It answers while a run holds the lock (a completion must not wait), and writes nothing.
    func testCompleteValuesTakesNoLockAndWritesNothing() throws {
        let descriptor = open(household.fileURL(".lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        XCTAssertEqual(flock(descriptor, LOCK_EX | LOCK_NB), 0)
        let before = try household.snapshot()
        for kind in ["pets", "games", "trips", "deliveries"] {
            XCTAssertFalse(try values(kind).isEmpty, kind)
        }
        XCTAssertEqual(try household.snapshot(), before)
    }

    func testCompleteValuesIsInNeitherTheOverviewNorTheManualNorTheScriptsOffers() throws {
        let overview = try NudgeProcess.run(["--help"], workingDirectory: scratch.url)
        XCTAssertFalse(overview.stdout.contains("complete-values"), overview.summary)
        let manual = try NudgeProcess.run(["man"], workingDirectory: scratch.url)
        XCTAssertEqual(manual.status, 0, manual.summary)
        XCTAssertFalse(manual.stdout.contains("complete-values"))
        let shells = try CompletingShells(scratch: scratch)
        XCTAssertFalse(try shells.bash(["nudge comp"]).joined().contains("complete-values"))
        XCTAssertFalse(try shells.fish(["nudge comp"]).joined().contains("complete-values"))
    }

    // MARK: - The shells

    /// The lines every shell is asked about, with NUDGE_DATA naming the household; `--data` on the line wins.
    private var lines: [String] {
        [
            "nudge laundry start ", "nudge laundry stop r", "nudge play ", "nudge import --game w",
            "nudge trip depart ", "nudge trip log office ", "nudge snooze ", "nudge act \(wash) ",
            "nudge laundry --data \(other.path) fold ", "nudge laundry --data=\(other.path) stop ",
            "nudge laundry --data \(broken.path) start ", "nudge act \(wash):s",
        ]
    }

    /// What every shell offers for `lines`, sorted, but for the line that completes an id after a colon.
    private func assertOffersTheHousehold(_ offered: [[String]], file: StaticString = #filePath, line: UInt = #line) {
        let sorted = offered.map { $0.sorted() }
        let expected: [[String]] = [
            ["rex", "snowy"], ["rex"], ["connections", "wordle"], ["wordle"],
            ["dentist", "office"], [], ["last", fajr, wash, snoozedWash, "snowy", "fajr"].sorted(),
            ActCommand.offeredActions.map(\.rawValue).sorted(),
            ["biscuit"], ["biscuit"], [],
        ]
        XCTAssertEqual(Array(sorted.prefix(expected.count)), expected, file: file, line: line)
    }

    func testBashOffersTheHouseholdAndCompletesAnIdAfterItsColons() throws {
        let offered = try CompletingShells(scratch: scratch, environment: ["NUDGE_DATA": household.path])
            .bash(lines + ["nudge act laundry.washComplete:sn", "nudge snooze \(fajr.prefix(20))"])
        assertOffersTheHousehold(offered)
        // bash replaces only what follows the last colon (COMP_WORDBREAKS), so that is what it is offered.
        XCTAssertEqual(offered[11], ["snooze-1"])
        XCTAssertEqual(offered[12].sorted(), ["snowy:c-1", "snowy:c-1:snooze-1"])
        XCTAssertEqual(offered[13], ["2026-11-21"])
    }

    func testZshOffersTheHouseholdAndCompletesAnIdWithColons() throws {
        let offered = try CompletingShells(scratch: scratch, environment: ["NUDGE_DATA": household.path])
            .zsh(lines + ["nudge laundry start snowy "])
        assertOffersTheHousehold(offered)
        XCTAssertEqual(offered[11], [snoozedWash])
        XCTAssertEqual(offered[12].sorted(), ["dry", "wash"])
    }

    func testFishOffersTheHouseholdAndCompletesAnIdWithColons() throws {
        let offered = try CompletingShells(scratch: scratch, environment: ["NUDGE_DATA": household.path])
            .fish(lines)
        assertOffersTheHousehold(offered)
        XCTAssertEqual(offered[11], [snoozedWash])
    }

    /// `nudge complete-values KIND --data DIR`'s lines.
    private func values(_ kind: String) throws -> [String] {
        let result = try NudgeProcess.run(["complete-values", kind, "--data", household.path],
                                          workingDirectory: scratch.url)
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "", result.summary)
        return result.stdoutLines
    }
}
