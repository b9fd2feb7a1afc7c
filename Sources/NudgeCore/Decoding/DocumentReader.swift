import Foundation

/// Reads typed values out of one parsed JSON document, recording every problem with its key path
/// instead of stopping at the first, so `nudge check` can list them all.
final class DocumentReader {
    let file: String
    private(set) var problems: [DataProblem] = []
    /// Key paths of members nudge does not know; reported as warnings by `nudge check` only.
    private(set) var unknownKeys: [KeyPath] = []

    init(file: String) {
        self.file = file
    }

    /// Parses a file's bytes, turning a syntax error into a problem with its line and column.
    static func parse(_ data: Data, file: String) -> Result<JSONValue, DataProblem> {
        do {
            return .success(try JSONParser.parse(data))
        } catch let error as JSONSyntaxError {
            return .failure(DataProblem(file: file, place: .position(line: error.line, column: error.column),
                                        message: error.message))
        } catch {
            return .failure(DataProblem(file: file, place: .file, message: "\(error)"))
        }
    }

    func report(_ path: KeyPath, _ message: String) {
        problems.append(DataProblem(file: file, place: .keyPath(path), message: message))
    }

    func noteUnknown(_ path: KeyPath) {
        unknownKeys.append(path)
    }

    /// The top-level object of a user file; `"version": 1` is accepted there.
    func root(_ value: JSONValue, knownKeys: [String]) -> ObjectReader? {
        guard let root = ObjectReader(value, at: .root, in: self) else { return nil }
        root.checkKeys(knownKeys + ["version"])
        if let version = value["version"], version.intValue != 1 {
            report(KeyPath.root.appending("version"), "\(Self.quote(version)) is not a supported version (expected 1)")
        }
        return root
    }

    /// A short rendering of an offending value for messages: strings quoted, long values cut.
    static func quote(_ value: JSONValue) -> String {
        let text: String
        switch value {
        case .string(let string): text = value.compactText.count <= 60 ? value.compactText : "\"\(string.prefix(40))…\""
        case .number(let literal): text = literal.count <= 40 ? literal : String(literal.prefix(40)) + "…"
        case .bool, .null: text = value.compactText
        case .array: text = "an array"
        case .object: text = "an object"
        }
        return text
    }
}
