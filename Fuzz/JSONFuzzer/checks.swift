// The JSON reader's invariants, shared by the two libFuzzer harnesses (JSONFuzzer and PipelineFuzzer).
// A broken check calls `fatalError`, which libFuzzer reports as a crash and saves as `crash-<sha1>`.

import Foundation

func checkJSONReader(_ bytes: [UInt8]) {
    let value: JSONValue
    do {
        value = try JSONParser.parse(bytes)
    } catch let error as JSONSyntaxError {
        checkPosition(error, in: bytes)
        return
    } catch {
        fatalError("JSONParser.parse threw \(type(of: error)) (\(error)), not JSONSyntaxError")
    }
    let pretty = value.prettyText
    let compact = value.compactText
    for (name, text) in [("prettyText", pretty), ("compactText", compact)] {
        let again: JSONValue
        do {
            again = try JSONParser.parse(Array(text.utf8))
        } catch {
            fatalError("\(name) of a parsed document does not parse: \(error)\n\(text)")
        }
        guard again == value else { fatalError("\(name) does not round-trip:\n\(text)") }
        guard again.prettyText == pretty else { fatalError("\(name) → parse → prettyText changed the bytes") }
    }
}

func checkPosition(_ error: JSONSyntaxError, in bytes: [UInt8]) {
    let lineBreaks = bytes.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
    guard error.line >= 1, error.line <= lineBreaks + 1 else {
        fatalError("line \(error.line) outside 1...\(lineBreaks + 1): \(error)")
    }
    // Bytes on the error's line (a column counts scalars, so it can never exceed bytes + 1).
    var line = 1
    var lineLength = 0
    for byte in bytes {
        if byte == 0x0A {
            if line == error.line { break }
            line += 1
        } else if line == error.line {
            lineLength += 1
        }
    }
    guard error.column >= 1, error.column <= lineLength + 1 else {
        fatalError("column \(error.column) outside 1...\(lineLength + 1) on line \(error.line): \(error)")
    }
    guard !error.message.isEmpty else { fatalError("empty message at \(error.line):\(error.column)") }
    guard let offset = errorOffset(line: error.line, column: error.column, in: bytes) else {
        fatalError("\(error) names a line:column the input does not have")
    }
    if let mismatch = positionMismatch(error.message, at: offset, in: bytes) { fatalError("\(error): \(mismatch)") }
}


/// The byte offset that a syntax error's 1-based line and column name (columns count scalars; a BOM at the
/// start is not a column), or nil when the input has no such place. Everything before an error has been
/// accepted by the parser, so it is valid UTF-8 and each scalar's length follows from its lead byte.
func errorOffset(line: Int, column: Int, in bytes: [UInt8]) -> Int? {
    var index = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? 3 : 0
    var currentLine = 1
    while currentLine < line {
        guard let lineFeed = bytes[index...].firstIndex(of: 0x0A) else { return nil }
        index = lineFeed + 1
        currentLine += 1
    }
    var currentColumn = 1
    while currentColumn < column {
        guard index < bytes.count, bytes[index] != 0x0A else { return nil }
        let lead = bytes[index]
        index += lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        currentColumn += 1
    }
    return index <= bytes.count ? index : nil
}

/// Whether the error's message agrees with what is at `offset`: "end of input" at the end, "found 'x'" where x
/// is, "found U+XXXX" / "control character U+XXXX" on that scalar, "invalid UTF-8 byte 0xNN" on that byte, and so
/// on. Returns a description of the disagreement, or nil.
func positionMismatch(_ message: String, at offset: Int, in bytes: [UInt8]) -> String? {
    func scalar(at offset: Int) -> UInt32? {
        guard offset < bytes.count else { return nil }
        let lead = bytes[offset]
        let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
        guard offset + length <= bytes.count else { return nil }
        return String(validating: bytes[offset..<offset + length], as: UTF8.self)?.unicodeScalars.first?.value
    }
    let here = offset < bytes.count ? "byte 0x\(String(bytes[offset], radix: 16))" : "the end"
    if message.contains("end of input") {
        return offset == bytes.count ? nil : "says end of input but points at \(here) (offset \(offset))"
    }
    guard offset < bytes.count else { return "points past the last byte but does not say end of input" }
    if let range = message.range(of: "found '", options: .backwards), message.hasSuffix("'") {
        let found = Array(message[range.upperBound...].dropLast().utf8)
        return bytes[offset...].starts(with: found) ? nil : "says found '\(String(decoding: found, as: UTF8.self))' but \(here) is there"
    }
    if let range = message.range(of: "U+", options: .backwards),
       let value = UInt32(message[range.upperBound...].prefix { $0.isHexDigit }, radix: 16) {
        return scalar(at: offset) == value ? nil : "names U+\(String(value, radix: 16)) but \(here) is there"
    }
    if let range = message.range(of: "invalid UTF-8 byte 0x"),
       let value = UInt8(message[range.upperBound...].prefix { $0.isHexDigit }, radix: 16) {
        return bytes[offset] == value ? nil : "names byte 0x\(String(value, radix: 16)) but \(here) is there"
    }
    let expected: (UInt8) -> Bool
    if message.hasPrefix("duplicate key") {
        expected = { $0 == 0x22 }
    } else if message.hasPrefix("unpaired surrogate") {
        expected = { $0 == 0x5C }
    } else if message.hasPrefix("nesting deeper") {
        expected = { $0 == 0x5B || $0 == 0x7B }
    } else if message.hasPrefix("leading zeros") {
        expected = { $0 >= 0x30 && $0 <= 0x39 }
    } else if message.hasPrefix("trailing characters") {
        expected = { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
    } else if message == "invalid UTF-8" {
        expected = { $0 >= 0x80 }
    } else {
        return nil
    }
    return expected(bytes[offset]) ? nil : "\"\(message)\" but \(here) is there"
}
