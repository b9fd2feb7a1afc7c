import Foundation
import XCTest

/// A comment, script or page that sends its reader to a section of a page (the page's path under docs/, a comma,
/// and the section's name in quotes) names something that page has: a
/// heading, a bold lead (`**Name.**`) or the first cell of a table row. A renamed section otherwise leaves
/// every citation of it pointing nowhere.
final class DocumentCitationTests: XCTestCase {
    func testEveryCitedSectionOfADocumentExists() throws {
        let root = RepositoryScript.root
        let files = try sources(under: root, in: ["Sources", "Tests", "scripts", "docs", "bench", "Fuzz"])
            + ["README.md", ".ci/run", "CHANGELOG.md"].map { root.appendingPathComponent($0) }
        // The path, a comma, the name in quotes; across a comment's line break too.
        let citation = try NSRegularExpression(pattern: #"(docs/[a-z-]+\.md), +["“]([^"”\n]+)["”]"#)
        var names: [String: Set<String>] = [:]
        var checked = 0
        var missing: [String] = []
        for file in files {
            guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
            let joined = Self.joiningCommentLines(text)
            for match in citation.matches(in: joined, range: NSRange(joined.startIndex..., in: joined)) {
                guard let docRange = Range(match.range(at: 1), in: joined),
                      let nameRange = Range(match.range(at: 2), in: joined) else { continue }
                let document = String(joined[docRange])
                let name = Self.normalized(String(joined[nameRange]))
                if names[document] == nil {
                    let page = try? String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
                    names[document] = page.map(Self.citableNames) ?? []
                }
                checked += 1
                if names[document]?.contains(name) != true {
                    missing.append("\(file.path.dropFirst(root.path.count + 1)): \(document), \"\(name)\"")
                }
            }
        }
        XCTAssertGreaterThan(checked, 100, "the citations were found")
        XCTAssertEqual(missing, [], "cited sections that do not exist")
    }

    /// The files of `directories` (recursively), hidden ones and build output left out.
    private func sources(under root: URL, in directories: [String]) throws -> [URL] {
        directories.flatMap { directory -> [URL] in
            let enumerator = FileManager.default.enumerator(at: root.appendingPathComponent(directory),
                                                            includingPropertiesForKeys: [.isRegularFileKey],
                                                            options: [.skipsHiddenFiles])
            return (enumerator?.allObjects as? [URL] ?? []).filter {
                (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
            }
        }
    }

    /// The text with each comment's line break and the next line's comment marker (`///`, `//`, `#`) and
    /// indentation made one space, so a citation broken across lines reads whole.
    static func joiningCommentLines(_ text: String) -> String {
        text.replacingOccurrences(of: #"\n[ \t]*(///?|#)?[ \t]*"#, with: " ", options: .regularExpression)
    }

    /// A name as compared: spaces made one, case and a final full stop ignored.
    static func normalized(_ name: String) -> String {
        var words = name.split(whereSeparator: \.isWhitespace).joined(separator: " ").lowercased()
        while words.hasSuffix(".") { words.removeLast() }
        return words
    }

    /// A page's headings, bold leads and first cells of table rows.
    static func citableNames(_ page: String) -> Set<String> {
        var names: Set<String> = []
        for line in page.split(separator: "\n").map(String.init) {
            if line.hasPrefix("#") {
                names.insert(normalized(String(line.drop { $0 == "#" })))
            } else if let lead = line.range(of: #"^(- |\d+\. )?\*\*[^*]+\*\*"#, options: .regularExpression) {
                let bold = line[lead].drop { $0 != "*" }.dropFirst(2).dropLast(2)
                names.insert(normalized(String(bold)))
            } else if line.hasPrefix("| ") {
                let cell = line.dropFirst(2).prefix { $0 != "|" }
                names.insert(normalized(String(cell)))
            }
        }
        return names
    }
}
