import XCTest
@testable import NudgeCore

/// The games' share texts as they print them (docs/files.md, "streaks.json"): emoji rows, CRLF, chat around them.
final class ShareTextTests: XCTestCase {
    static let wordle = "Wordle 1,617 3/6*\r\n\r\n⬛🟨⬛⬛⬛\r\n⬛🟩🟨⬛🟨\r\n🟩🟩🟩🟩🟩\r\n"
    static let connections = "Connections\nPuzzle #531\n🟨🟨🟨🟨\n🟩🟦🟩🟩\n🟩🟩🟩🟩\n🟦🟦🟦🟦\n🟪🟪🟪🟪"
    static let mini = "I solved the Monday 11/23/2026 New York Times Mini Crossword in 0:48!\n"
        + "https://www.nytimes.com/crosswords/game/mini"
    static let strands = "Strands #263\n“Fork it over”\n💡🔵🔵🟡\n🔵💡🔵🔵\n"

    private func result(_ text: String) -> ShareText.Result? { ShareText.recognise(text) }

    func testWordleHardModeWithCRLF() {
        XCTAssertEqual(result(Self.wordle), .init(game: .wordle, puzzle: "1617", summary: "3/6*"))
    }

    func testWordleLostAndThousandsSeparatorsAndChatAround() {
        let text = "lol today was rough\n\nWordle 1.617 X/6\n\n⬜⬜🟨⬜⬜\n⬜🟩🟩⬜⬜\n🟩🟩🟩⬜🟩\n🟩🟩🟩⬜🟩\n"
            + "🟩🟩🟩⬜🟩\n🟩🟩🟩⬜🟩\n\nyou?"
        XCTAssertEqual(result(text), .init(game: .wordle, puzzle: "1617", summary: "X/6"))
        XCTAssertEqual(result("Wordle 999 1/6"), .init(game: .wordle, puzzle: "999", summary: "1/6"))
    }

    func testConnectionsSolvedWithOneMistakeAndNotSolved() {
        XCTAssertEqual(result(Self.connections), .init(game: .connections, puzzle: "531", summary: "solved, 1 mistake"))
        let lost = "Connections\r\nPuzzle #532\r\n🟨🟩🟨🟨\r\n🟨🟨🟪🟨\r\n🟩🟩🟩🟩\r\n🟨🟦🟨🟨\r\n🟨🟨🟨🟪\r\n"
        XCTAssertEqual(result(lost), .init(game: .connections, puzzle: "532", summary: "not solved, 4 mistakes"))
        let perfect = "Connections \nPuzzle #533\n🟪🟪🟪🟪\n🟦🟦🟦🟦\n🟩🟩🟩🟩\n🟨🟨🟨🟨"
        XCTAssertEqual(result(perfect)?.summary, "solved, no mistakes")
    }

    func testTheMiniHasATimeAndNoNumber() {
        XCTAssertEqual(result(Self.mini), .init(game: .mini, puzzle: nil, summary: "0:48"))
        XCTAssertEqual(result("I solved the 11/23/2026 New York Times Mini Crossword in 1:02:07!")?.summary, "1:02:07")
    }

    func testStrandsCountsHints() {
        XCTAssertEqual(result(Self.strands), .init(game: .strands, puzzle: "263", summary: "2 hints"))
        XCTAssertEqual(result("Strands #264\n“Nuts!”\n🔵🔵🟡🔵\n🔵🔵")?.summary, "no hints")
    }

    func testTextsNoRuleKnows() {
        XCTAssertNil(result("Вордл 1 234 3/6\n🟩🟩🟩🟩🟩"), "another script")
        XCTAssertNil(result("Wоrdle 1,617 3/6"), "a Cyrillic о inside the name")
        XCTAssertNil(result("Wordle 1,617 7/6"))
        XCTAssertNil(result("Connections\nPuzzle #abc\n🟨🟨🟨🟨"))
        XCTAssertNil(result("Connections\nPuzzle #531\nno rows"))
        XCTAssertNil(result("Strands #263\nno rows here"))
        XCTAssertNil(result("Wordle 12345678901 3/6"), "a puzzle number too long to be one")
        XCTAssertNil(result(""))
    }
}
