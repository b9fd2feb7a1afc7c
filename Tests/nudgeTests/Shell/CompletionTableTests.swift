import XCTest
@testable import nudge

/// `CompletionTable`: what the scripts of every shell offer at each place, worked out from the command table.
final class CompletionTableTests: XCTestCase {
    private let table = CompletionTable(NudgeCLI.commands, options: NudgeCLI.options)

    /// The slot of `command` after the positional words `before` (nil: any word).
    private func slot(_ command: String, _ before: [String?]) -> CompletionTable.Slot? {
        table.slots.first { $0.command == command && $0.before == before }
    }

    func testEveryPlaceWhereAPetGameTripOrDeliveryIsTypedAsksForItsIds() {
        let places: [(String, [String?], HouseholdIDs)] = [
            ("laundry", ["start"], .pets), ("laundry", ["fold"], .pets), ("laundry", ["stop"], .pets),
            ("play", [], .games),
            ("trip", ["depart"], .trips), ("trip", ["arrive"], .trips), ("trip", ["log"], .trips),
            ("snooze", [], .deliveries), ("act", [], .deliveries),
        ]
        for (command, before, ids) in places {
            XCTAssertEqual(slot(command, before)?.ids, [ids], "\(command) \(before)")
        }
        XCTAssertEqual(slot("snooze", [])?.words, ["last"])
        XCTAssertEqual(slot("act", [])?.words, ["last"])
        let game = ImportCommand.command.options.first { $0.name == "--game" }
        XCTAssertEqual(game?.completion.ids, .games)
    }

    func testPlacesOfFixedWordsOrFreeValuesAskForNoIds() {
        XCTAssertEqual(slot("laundry", ["start", nil])?.ids, [])
        XCTAssertEqual(slot("laundry", ["start", nil])?.words.sorted(), ["dry", "wash"])
        XCTAssertEqual(slot("act", [nil])?.ids, [])
        XCTAssertNil(slot("trip", ["log", nil]), "MINUTES: nothing to offer")
        XCTAssertEqual(slot("laundry", [])?.ids, [])
    }

    /// Two forms with a value at the same place: the slot asks for the ids of both, each once.
    func testFormsThatShareAPlaceMergeTheirIds() {
        let command = Command(name: "pick", usage: "nudge pick X", summary: "", options: [], positionals: 1...1,
                              forms: [[.household(.pets)], [.household(.games, suggesting: ["none"])],
                                      [.household(.pets)]],
                              run: { _, _ in .success })
        let table = CompletionTable([command], options: [])
        XCTAssertEqual(table.slots.count, 1)
        XCTAssertEqual(table.slots.first?.ids, [.pets, .games])
        XCTAssertEqual(table.slots.first?.words, ["none"])
    }

    func testTheValueListerIsHiddenAndFoundByItsName() {
        XCTAssertEqual(NudgeCLI.command(named: "complete-values")?.hidden, true)
        XCTAssertFalse(table.commands.contains { $0.name == "complete-values" })
        for kind in HouseholdIDs.allCases {
            XCTAssertTrue(CompleteValuesCommand.command.usage.contains(kind.rawValue), kind.rawValue)
        }
    }
}
