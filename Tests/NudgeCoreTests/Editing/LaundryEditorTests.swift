import XCTest
@testable import NudgeCore

final class LaundryEditorTests: XCTestCase {
    private let now = Fixtures.instant("2026-11-21T08:30:00Z")

    /// A user's file with keys nudge does not know at every level: top-level "note", pet-level "colour",
    /// cycle-level "machine".
    private let washing = """
    {"note": "mine", "pets": [
      {"id": "snowy", "name": "Snowy", "colour": "white", "washMinutes": 45,
       "cycle": {"id": "c-1042", "machine": "left", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z"}},
      {"id": "rex", "name": "Rex"}
    ], "version": 1}
    """

    private func edit(_ action: LaundryEditor.Action, _ text: String, pet: String = "snowy",
                      used: Set<String> = []) throws -> String {
        let result = LaundryEditor.apply(action, toPet: pet, in: Array(text.utf8), now: now, usedCycleIDs: used)
        return String(decoding: try result.get(), as: UTF8.self)
    }

    func testRestartingTheDryerGivesTheCycleANewID() throws {
        let drying = washing.replacingOccurrences(of: "\"stage\": \"wash\"", with: "\"stage\": \"dry\"")
        let edited = try JSONParser.parse(Array(try edit(.start(.dry), drying).utf8))
        let cycle = edited["pets"]?.arrayValue?.first?["cycle"]
        XCTAssertEqual(cycle?["id"], .string("c-20261121T083000Z"))
        XCTAssertEqual(cycle?["machine"], .string("left"))
        XCTAssertEqual(cycle?["startedAt"], .string("2026-11-21T08:30:00Z"))
    }

    func testStartDryOnANullCycleStartsANewCycle() throws {
        let edited = try JSONParser.parse(Array(try edit(.start(.dry), #"{"pets": [{"id": "snowy", "cycle": null}]}"#).utf8))
        XCTAssertEqual(edited["pets"]?.arrayValue?.first?["cycle"], .object([
            JSONMember("id", .string("c-20261121T083000Z")), JSONMember("stage", .string("dry")),
            JSONMember("startedAt", .string("2026-11-21T08:30:00Z")),
        ]))
    }

    func testStartDryKeepsTheCycleIDAndEveryOtherKey() throws {
        // Only the two values that change: the user's own line breaks and spacing stay as they were.
        XCTAssertEqual(try edit(.start(.dry), washing), washing.replacingOccurrences(
            of: #""stage": "wash", "startedAt": "2026-11-21T07:30:00Z""#,
            with: #""stage": "dry", "startedAt": "2026-11-21T08:30:00Z""#))
    }

    func testStartWashReplacesARunningDryCycleWithANewID() throws {
        let drying = washing.replacingOccurrences(of: "\"stage\": \"wash\"", with: "\"stage\": \"dry\"")
        XCTAssertEqual(try edit(.start(.wash), drying), washing.replacingOccurrences(
            of: #""cycle": {"id": "c-1042", "machine": "left", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z"}"#,
            with: #""cycle": {"id": "c-20261121T083000Z", "stage": "wash", "startedAt": "2026-11-21T08:30:00Z"}"#))
    }

    func testStartWashWithoutACycleAddsOneInThePetsOwnStyle() throws {
        XCTAssertEqual(try edit(.start(.wash), washing, pet: "rex"), washing.replacingOccurrences(
            of: #"{"id": "rex", "name": "Rex"}"#,
            with: #"{"id": "rex", "name": "Rex", "cycle": {"id": "c-20261121T083000Z", "stage": "wash", "#
                + #""startedAt": "2026-11-21T08:30:00Z"}}"#))
    }

    func testAPetOnSeveralLinesIndentedByFourSpacesGetsItsCycleOnSeveralLines() throws {
        let text = """
            {
                "pets": [
                    {
                        "id": "rex",
                        "name": "Rex"
                    }
                ]
            }

            """
        let started = try edit(.start(.wash), text, pet: "rex")
        XCTAssertEqual(started, """
            {
                "pets": [
                    {
                        "id": "rex",
                        "name": "Rex",
                        "cycle": {
                            "id": "c-20261121T083000Z",
                            "stage": "wash",
                            "startedAt": "2026-11-21T08:30:00Z"
                        }
                    }
                ]
            }

            """)
        let folded = String(decoding: try LaundryEditor.apply(.fold, toPet: "rex", in: Array(started.utf8),
                                                              now: Fixtures.instant("2026-11-21T10:00:00Z"),
                                                              usedCycleIDs: []).get(), as: UTF8.self)
        XCTAssertEqual(folded, """
            {
                "pets": [
                    {
                        "id": "rex",
                        "name": "Rex",
                        "lastCompletedAt": "2026-11-21T10:00:00Z"
                    }
                ]
            }

            """)
    }

    func testAHandWrappedPetGetsItsCycleOnOneLineLikeItsNeighbours() throws {
        let text = """
            {
              "pets": [
                { "id": "snowy", "name": "Snowy", "washMinutes": 45, "dryMinutes": 60,
                  "lastCompletedAt": "2026-11-14T18:00:00Z",
                  "cycle": { "id": "c-1042", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z" } },
                { "id": "mochi", "name": "Mochi",
                  "lastCompletedAt": "2026-11-12T08:00:00Z" }
              ]
            }

            """
        XCTAssertEqual(try edit(.start(.wash), text, pet: "mochi"), text.replacingOccurrences(
            of: #""lastCompletedAt": "2026-11-12T08:00:00Z" }"#,
            with: #""lastCompletedAt": "2026-11-12T08:00:00Z","#
                + "\n      " + #""cycle": { "id": "c-20261121T083000Z", "stage": "wash", "startedAt": "2026-11-21T08:30:00Z" } }"#))
        XCTAssertEqual(try edit(.fold, text), text.replacingOccurrences(
            of: #""lastCompletedAt": "2026-11-14T18:00:00Z","#
                + "\n      " + #""cycle": { "id": "c-1042", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z" } },"#,
            with: #""lastCompletedAt": "2026-11-21T08:30:00Z" },"#))
    }

    func testStartWashWithoutACycleAddsOneAtTheEndOfThePet() throws {
        let edited = try JSONParser.parse(Array(try edit(.start(.wash), washing, pet: "rex").utf8))
        XCTAssertEqual(edited["pets"]?.arrayValue?[1], .object([
            JSONMember("id", .string("rex")), JSONMember("name", .string("Rex")),
            JSONMember("cycle", .object([
                JSONMember("id", .string("c-20261121T083000Z")), JSONMember("stage", .string("wash")),
                JSONMember("startedAt", .string("2026-11-21T08:30:00Z")),
            ])),
        ]))
        XCTAssertEqual(edited["pets"]?.arrayValue?[0], try JSONParser.parse(Array(washing.utf8))["pets"]?.arrayValue?[0])
    }

    func testStartDryWithoutACycleStartsANewCycle() throws {
        let edited = try JSONParser.parse(Array(try edit(.start(.dry), washing, pet: "rex").utf8))
        XCTAssertEqual(edited["pets"]?.arrayValue?[1]["cycle"], .object([
            JSONMember("id", .string("c-20261121T083000Z")), JSONMember("stage", .string("dry")),
            JSONMember("startedAt", .string("2026-11-21T08:30:00Z")),
        ]))
    }

    func testStartDryOnACycleWithoutIDLeavesItWithoutOne() throws {
        // Such a cycle is named by its start instant, which is not a valid "id" value to write down.
        let text = #"{"pets": [{"id": "snowy", "cycle": {"stage": "wash", "startedAt": "2026-11-21T07:30:00+01:00"}}]}"#
        let edited = try JSONParser.parse(Array(try edit(.start(.dry), text).utf8))
        XCTAssertEqual(edited["pets"]?.arrayValue?[0]["cycle"], .object([
            JSONMember("stage", .string("dry")), JSONMember("startedAt", .string("2026-11-21T08:30:00Z")),
        ]))
    }

    func testStartDryOnACycleWithoutIDWhoseNewNameIsUsedGivesItAnID() throws {
        // Its new start would name it "2026-11-21T08:30:00Z", the name of an earlier id-less cycle's stages.
        let text = #"{"pets": [{"id": "snowy", "cycle": {"stage": "wash", "startedAt": "2026-11-21T07:30:00+01:00"}}]}"#
        let edited = try JSONParser.parse(Array(try edit(.start(.dry), text, used: ["2026-11-21T08:30:00Z"]).utf8))
        XCTAssertEqual(edited["pets"]?.arrayValue?[0]["cycle"], .object([
            JSONMember("stage", .string("dry")), JSONMember("startedAt", .string("2026-11-21T08:30:00Z")),
            JSONMember("id", .string("c-20261121T083000Z")),
        ]))
    }

    func testStartWashTwiceInOneSecondGetsASuffixedID() throws {
        let text = #"{"pets": [{"id": "snowy", "cycle": {"id": "c-20261121T083000Z", "stage": "wash", "#
            + #""startedAt": "2026-11-21T08:30:00Z"}}]}"#
        let edited = try JSONParser.parse(Array(try edit(.start(.wash), text).utf8))
        XCTAssertEqual(edited["pets"]?.arrayValue?[0]["cycle"]?["id"], .string("c-20261121T083000Z-2"))
        XCTAssertEqual(LaundryEditor.cycleID(startedAt: now, avoiding: ["c-20261121T083000Z-2"]), "c-20261121T083000Z")
        XCTAssertEqual(LaundryEditor.cycleID(startedAt: Fixtures.instant("2026-01-02T03:04:05.678Z"), avoiding: []),
                       "c-20260102T030405Z")
    }

    func testANewCycleIsNeverNamedLikeOneTheDirectoryAlreadyUsed() throws {
        // A clock set back to 08:30:00 again: that second's cycle (and its -2) have stages delivered or recorded.
        let used: Set<String> = ["c-20261121T083000Z", "c-20261121T083000Z-2"]
        let washed = try JSONParser.parse(Array(try edit(.start(.wash), washing, used: used).utf8))
        XCTAssertEqual(washed["pets"]?.arrayValue?[0]["cycle"]?["id"], .string("c-20261121T083000Z-3"))
        let dried = try JSONParser.parse(Array(try edit(.start(.dry), washing, pet: "rex", used: used).utf8))
        XCTAssertEqual(dried["pets"]?.arrayValue?[1]["cycle"]?["id"], .string("c-20261121T083000Z-3"))
        // Moving a washed cycle to the dryer keeps its id whatever else was used.
        let moved = try JSONParser.parse(Array(try edit(.start(.dry), washing, used: ["c-1042"]).utf8))
        XCTAssertEqual(moved["pets"]?.arrayValue?[0]["cycle"]?["id"], .string("c-1042"))
    }

    func testTheUsedCycleIDsAreThePetsLaundryStagesOnly() {
        let ids = [
            "laundry.washComplete:snowy:c-20261121T083000Z", "laundry.dryComplete:snowy:c-7",
            "laundry.foldReminder:snowy:c-7:snooze-2", "laundry.washComplete:rex:c-9",
            "laundry.health:snowy:2026-11-21T10:00:00Z", "alarm.wake:snowy:2026-11-21",
            "laundry.almostDone:snowy:2026-11-21T07:30:00Z",
        ]
        XCTAssertEqual(LaundryEditor.cycleIDs(ofPet: "snowy", in: ids),
                       ["c-20261121T083000Z", "c-7", "2026-11-21T07:30:00Z"])
    }

    func testFoldSetsLastCompletedAtAndRemovesTheCycle() throws {
        XCTAssertEqual(try edit(.fold, washing), washing.replacingOccurrences(
            of: "\"washMinutes\": 45,\n   \"cycle\": {\"id\": \"c-1042\", \"machine\": \"left\", \"stage\": \"wash\", "
                + "\"startedAt\": \"2026-11-21T07:30:00Z\"}}",
            with: "\"washMinutes\": 45, \"lastCompletedAt\": \"2026-11-21T08:30:00Z\"}"))
    }

    func testFoldReplacesLastCompletedAtInPlace() throws {
        let text = #"{"pets": [{"id": "snowy", "lastCompletedAt": "2026-11-14T18:00:00Z", "name": "Snowy"}]}"#
        XCTAssertEqual(try edit(.fold, text),
                       #"{"pets": [{"id": "snowy", "lastCompletedAt": "2026-11-21T08:30:00Z", "name": "Snowy"}]}"#)
    }

    func testStopRemovesOnlyTheCycle() throws {
        XCTAssertEqual(try edit(.stop, washing), washing.replacingOccurrences(
            of: "\"washMinutes\": 45,\n   \"cycle\": {\"id\": \"c-1042\", \"machine\": \"left\", \"stage\": \"wash\", "
                + "\"startedAt\": \"2026-11-21T07:30:00Z\"}}",
            with: "\"washMinutes\": 45}"))
    }

    func testStopWithoutACycleLeavesTheBytesAsTheyAre() throws {
        XCTAssertEqual(try edit(.stop, washing, pet: "rex"), washing)
    }

    // MARK: - What a command replaces

    /// Rex, whose wash takes 45 min and dry 60, with a cycle in `stage` started `minutes` before `now`.
    private func rex(_ stage: LaundryCycle.Stage, startedMinutesAgo minutes: Double) -> Pet {
        Pet(id: "rex", name: "Rex", washMinutes: 45, dryMinutes: 60,
            cycle: LaundryCycle(id: "c-1", stage: stage, startedAt: now.addingTimeInterval(-minutes * 60)))
    }

    func testAStartSaysWhichCycleItReplaces() {
        XCTAssertEqual(LaundryEditor.replaced(by: .start(.wash), pet: rex(.wash, startedMinutesAgo: 12), now: now),
                       "Rex's wash, started 12 min ago, replaced by a new one.")
        XCTAssertEqual(LaundryEditor.replaced(by: .start(.wash), pet: rex(.wash, startedMinutesAgo: 50), now: now),
                       "Rex's wash, finished 5 min ago, replaced by a new one.")
        XCTAssertEqual(LaundryEditor.replaced(by: .start(.dry), pet: rex(.dry, startedMinutesAgo: 20), now: now),
                       "Rex's dry, started 20 min ago, replaced by a new one.")
        XCTAssertEqual(LaundryEditor.replaced(by: .start(.wash), pet: rex(.dry, startedMinutesAgo: 90), now: now),
                       "Rex's dry, finished 30 min ago, replaced by a new wash.")
        XCTAssertEqual(LaundryEditor.replaced(by: .start(.wash), pet: rex(.wash, startedMinutesAgo: 0.5), now: now),
                       "Rex's wash, started just now, replaced by a new one.")
        XCTAssertEqual(LaundryEditor.replaced(by: .start(.wash), pet: rex(.wash, startedMinutesAgo: -5), now: now),
                       "Rex's wash, set to start in 5 min, replaced by a new one.", "a clock set back")
    }

    func testAFoldSaysWhenItClearsACycleBeforeItFinished() {
        XCTAssertEqual(LaundryEditor.replaced(by: .fold, pet: rex(.wash, startedMinutesAgo: 12), now: now),
                       "Rex's wash, started 12 min ago, cleared before it finished.")
        XCTAssertEqual(LaundryEditor.replaced(by: .fold, pet: rex(.dry, startedMinutesAgo: 20), now: now),
                       "Rex's dry, started 20 min ago, cleared before it finished.")
    }

    func testWhatReplacesNothingSaysNothingMore() {
        XCTAssertNil(LaundryEditor.replaced(by: .start(.dry), pet: rex(.wash, startedMinutesAgo: 12), now: now),
                     "a wash moved to the dryer goes on")
        XCTAssertNil(LaundryEditor.replaced(by: .fold, pet: rex(.dry, startedMinutesAgo: 70), now: now))
        XCTAssertNil(LaundryEditor.replaced(by: .fold, pet: rex(.wash, startedMinutesAgo: 50), now: now),
                     "a finished wash folded as it is")
        XCTAssertNil(LaundryEditor.replaced(by: .stop, pet: rex(.wash, startedMinutesAgo: 12), now: now),
                     "stop says so itself")
        XCTAssertNil(LaundryEditor.replaced(by: .start(.wash), pet: Pet(id: "rex", name: "Rex"), now: now))
    }

    func testUnknownPetNamesThePetAndTheKnownOnes() {
        let result = LaundryEditor.apply(.fold, toPet: "fluffy", in: Array(washing.utf8), now: now, usedCycleIDs: [])
        XCTAssertEqual(result, .failure(.unknownPet("fluffy", known: ["snowy", "rex"])))
        XCTAssertEqual(LaundryEditor.Failure.unknownPet("fluffy", known: ["snowy", "rex"]).description,
                       "laundry.json: unknown pet \"fluffy\" (known: snowy, rex)")
        XCTAssertEqual(LaundryEditor.apply(.stop, toPet: "fluffy", in: Array("{}".utf8), now: now, usedCycleIDs: []),
                       .failure(.unknownPet("fluffy", known: [])))
    }

    func testMissingFileHasNoPets() {
        let result = LaundryEditor.apply(.start(.wash), toPet: "snowy", in: nil, now: now, usedCycleIDs: [])
        XCTAssertEqual(result, .failure(.noFile(pet: "snowy")))
    }

    func testBrokenSyntaxIsReportedWithLineAndColumn() {
        let result = LaundryEditor.apply(.fold, toPet: "snowy", in: Array("{\"pets\": [\n  {\"id\": }]}".utf8),
                                         now: now, usedCycleIDs: [])
        guard case .failure(.invalidFile(let problems)) = result else {
            return XCTFail("a broken laundry.json must not be rewritten: \(result)")
        }
        XCTAssertEqual(problems.count, 1)
        XCTAssertEqual(problems.first?.file, "laundry.json")
        XCTAssertEqual(problems.first?.place, .position(line: 2, column: 10))
    }

    func testInvalidValueIsReportedWithItsKeyPath() {
        let text = #"{"pets": [{"id": "snowy", "washMinutes": 0}]}"#
        let result = LaundryEditor.apply(.start(.wash), toPet: "snowy", in: Array(text.utf8), now: now,
                                         usedCycleIDs: [])
        guard case .failure(.invalidFile(let problems)) = result else {
            return XCTFail("an invalid laundry.json must not be rewritten: \(result)")
        }
        XCTAssertEqual(problems.map(\.description).count, 1)
        XCTAssertTrue(problems[0].description.hasPrefix("laundry.json: pets[0].washMinutes: "), problems[0].description)
    }

    func testAnEditThatWouldMakeTheFileInvalidIsRefused() {
        // Instants must lie between 2000 and 2200: folding "in 2300" would break the file.
        let result = LaundryEditor.apply(.fold, toPet: "snowy", in: Array(washing.utf8),
                                         now: Fixtures.instant("2300-01-01T00:00:00Z"), usedCycleIDs: [])
        guard case .failure(.invalidFile(let problems)) = result else {
            return XCTFail("the edit must be validated: \(result)")
        }
        XCTAssertTrue(problems[0].description.hasPrefix("laundry.json: pets[0].lastCompletedAt: "),
                      problems[0].description)
    }
}
