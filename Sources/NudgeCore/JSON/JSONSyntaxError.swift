/// A JSON syntax error with a 1-based line and column (column counts Unicode scalars, not bytes;
/// a tab counts as 1).
///
/// Lines are separated by LF; a CR LF pair therefore counts as one line break. A UTF-8
/// byte order mark at the start of the input does not count as a column.
struct JSONSyntaxError: Error, Equatable, CustomStringConvertible {
    /// 1-based line of the offending byte.
    var line: Int
    /// 1-based column of the offending byte, in Unicode scalars.
    var column: Int
    /// What was found and what was expected, e.g. `expected ':' after object key, found '1'`.
    var message: String

    /// `line:column: message`, ready to be prefixed with a file name.
    var description: String { "\(line):\(column): \(message)" }
}

extension JSONSyntaxError {
    /// Creates the error for the byte at `offset` in `bytes` (`offset == bytes.count` means
    /// "at the end of input"), working out its line and column.
    ///
    /// Positions are computed only here, when an error actually happens, so the parser's
    /// hot loop never tracks them. Everything before `offset` has already been accepted by
    /// the parser, so it is valid UTF-8 and counting non-continuation bytes counts scalars.
    init(_ message: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let end = min(max(offset, 0), bytes.count)
        let hasByteOrderMark = bytes.count >= 3
            && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
        var line = 1
        var lineStart = hasByteOrderMark ? min(3, end) : 0
        var index = lineStart
        while index < end {
            if bytes[index] == 0x0A {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        var column = 1
        index = lineStart
        while index < end {
            if bytes[index] & 0xC0 != 0x80 {
                column += 1
            }
            index += 1
        }
        self.init(line: line, column: column, message: message)
    }
}
