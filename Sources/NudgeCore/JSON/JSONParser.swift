import FoundationEssentials

/// Strict RFC 8259 JSON parser that reports syntax errors with line and column.
///
/// Unlike `JSONDecoder` (which on Linux reports no position at all), every failure is a
/// `JSONSyntaxError` pointing at the offending character. The result keeps object members
/// in file order and numbers as their literal text, so a file can be rewritten without
/// reordering or reformatting what the user wrote.
///
/// What is accepted:
/// - an optional UTF-8 byte order mark, then exactly one JSON value surrounded by optional
///   whitespace (space, tab, LF, CR);
/// - strings that are valid UTF-8 with no unescaped control characters, using only the
///   escapes `\" \\ \/ \b \f \n \r \t \uXXXX` (surrogates must come in proper pairs);
/// - numbers matching `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`;
/// - the literals `true`, `false`, `null`;
/// - objects without duplicate keys, nested at most `maximumDepth` deep.
///
/// The parser works over raw bytes without recursion, so hostile input (say 100,000 `[`)
/// produces an error rather than a stack overflow.
public enum JSONParser {
    /// Maximum nesting of arrays/objects; deeper input is a syntax error (never a stack overflow).
    static let maximumDepth = 512

    /// Parses one JSON document from `bytes`.
    ///
    /// - Throws: `JSONSyntaxError` only.
    public static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer in
            try parse(buffer: buffer).value(JSONTape.root)
        }
    }

    /// Parses `data` and hands its tape to `read`, which must not keep it: the tape borrows `data`'s bytes for
    /// the duration of the call. Decoders read files this way, without building a `JSONValue` tree.
    ///
    /// - Throws: `JSONSyntaxError` for the parse, or what `read` throws.
    static func withTape<Result>(_ data: [UInt8], _ read: (JSONTape) throws -> Result) throws -> Result {
        try data.withUnsafeBufferPointer { buffer in
            try read(try parse(buffer: buffer))
        }
    }

    /// Shared entry point; `buffer` must stay valid for as long as the returned tape is used.
    static func parse(buffer: UnsafeBufferPointer<UInt8>) throws -> JSONTape {
        var parser = JSONByteParser(bytes: buffer, maximumDepth: maximumDepth)
        return try parser.parseDocument()
    }
}
