/// How a person laid out a JSON container, learned from its bytes, so that a value nudge adds reads like its
/// neighbours: on one line with their spacing, or one member a line with their indentation and line ends.
struct JSONStyle: Equatable {
    /// On one line (`{ "a": 1, "b": 2 }`, also a line that wraps without opening one), or one member a line.
    var isExpanded: Bool
    /// One member a line: one step of indentation (two spaces, four, a tab) and the line end (LF or CRLF).
    var indentStep: [UInt8]
    var newline: [UInt8]
    /// Between a key and its value, the colon included: `": "`, `":"`, `" : "`.
    var colon: [UInt8]
    /// On one line: after a comma, and inside the brackets of a container that is not empty.
    var afterComma: [UInt8]
    var insideBrackets: [UInt8]

    /// nudge's own layout, `JSONValue.prettyText`'s: what a file it creates is written in, and what an edit falls
    /// back on where the file shows nothing to follow.
    static let nudge = JSONStyle(isExpanded: true, indentStep: Array("  ".utf8), newline: [0x0A],
                                 colon: Array(": ".utf8), afterComma: [0x20], insideBrackets: [])

    /// The style of the non-empty container at `range` in `layout`; what it does not show is `fallback`'s.
    static func learned(from range: Range<Int>, in layout: JSONLayout, fallback: JSONStyle) -> JSONStyle {
        if layout.bytes[range.lowerBound] == UInt8(ascii: "{") {
            let members = layout.members(ofObjectAt: range.lowerBound)
            return learned(from: range, starts: members.map(\.key.lowerBound), firstMember: members.first, in: layout,
                           fallback: fallback)
        }
        return learned(from: range, starts: layout.elements(ofArrayAt: range.lowerBound).map(\.lowerBound),
                       firstMember: nil, in: layout, fallback: fallback)
    }

    /// The same for a container whose members or elements the caller has read: where each starts (a member at
    /// its key) and, for an object, its first member.
    static func learned(from range: Range<Int>, starts: [Int], firstMember: JSONLayout.Member?, in layout: JSONLayout,
                        fallback: JSONStyle) -> JSONStyle {
        var style = fallback
        guard let first = starts.first else { return fallback }
        if let member = firstMember {
            style.colon = Array(layout.bytes[member.key.upperBound..<member.value.lowerBound])
        }
        let opening = layout.whitespace(before: first)
        style.isExpanded = opening.contains(0x0A)
        if style.isExpanded {
            style.newline = opening.contains(0x0D) ? [0x0D, 0x0A] : [0x0A]
            let outer = layout.lineIndent(at: range.lowerBound)
            let inner = layout.lineIndent(at: first)
            if inner.count > outer.count, inner.starts(with: outer) { style.indentStep = Array(inner.dropFirst(outer.count)) }
        } else {
            style.insideBrackets = Array(opening)
        }
        if let spacing = starts.dropFirst().lazy.map(layout.whitespace(before:)).first(where: { !$0.contains(0x0A) }) {
            style.afterComma = Array(spacing)
        }
        return style
    }

    /// `value` as text in this style. `indent` is the indentation of the line it starts on: an expanded
    /// container's members go one step deeper, its closing bracket on a line of that indentation.
    func render(_ value: JSONValue, indent: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        write(value, indent: indent, to: &output)
        return output
    }

    private func write(_ value: JSONValue, indent: [UInt8], to output: inout [UInt8]) {
        switch value {
        case .array(let elements) where !elements.isEmpty:
            writeContainer(open: UInt8(ascii: "["), close: UInt8(ascii: "]"), count: elements.count,
                           indent: indent, to: &output) { index, inner, output in
                write(elements[index], indent: inner, to: &output)
            }
        case .object(let members) where !members.isEmpty:
            writeContainer(open: UInt8(ascii: "{"), close: UInt8(ascii: "}"), count: members.count,
                           indent: indent, to: &output) { index, inner, output in
                JSONValue.appendQuoted(members[index].key, to: &output)
                output.append(contentsOf: colon)
                write(members[index].value, indent: inner, to: &output)
            }
        default:
            value.write(to: &output, indent: nil)
        }
    }

    /// A non-empty container: its brackets, and `child` for each of its `count` members or elements, laid out.
    private func writeContainer(open: UInt8, close: UInt8, count: Int, indent: [UInt8], to output: inout [UInt8],
                                child: (Int, [UInt8], inout [UInt8]) -> Void) {
        let inner = indent + indentStep
        output.append(open)
        output.append(contentsOf: isExpanded ? newline + inner : insideBrackets)
        for index in 0..<count {
            if index > 0 {
                output.append(UInt8(ascii: ","))
                output.append(contentsOf: isExpanded ? newline + inner : afterComma)
            }
            child(index, inner, &output)
        }
        output.append(contentsOf: isExpanded ? newline + indent : insideBrackets)
        output.append(close)
    }
}
