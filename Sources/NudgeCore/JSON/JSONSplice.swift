/// An edit of a person's JSON file that changes only the bytes of what it changes (docs/promises.md): every other
/// byte — indentation, spacing, line breaks, key order — stays as they wrote it.
///
/// An editor changes the document as a `JSONValue` and hands the result here with the file's bytes. The two
/// documents are compared container by container along the way to what differs; a value that changed is
/// replaced where it lies, a member or element that was added goes after the last one, written like its
/// neighbour (`JSONStyle`), and one that went is cut out with its comma.
enum JSONSplice {
    /// `original` changed to read `edited`. With no original (nudge creates the file), or one that is not JSON,
    /// `edited` in nudge's own layout, indented by two spaces, with a final line end. `before` is `original` as
    /// `JSONParser` reads it, when the caller has it already (a large file is then parsed once less).
    static func content(_ edited: JSONValue, replacing original: [UInt8]?, read before: JSONValue? = nil) -> [UInt8] {
        let ownLayout = { Array((edited.prettyText + "\n").utf8) }
        guard let original, let before = before ?? (try? JSONParser.parse(original)) else { return ownLayout() }
        var splicer = Splicer(layout: JSONLayout(original))
        // The root's own style is learned on the way in; where the file shows none (`{}`), nudge's.
        splicer.change(before, to: edited, at: splicer.layout.root, context: .nudge)
        // A safety net, never expected to catch: what is written must read as the edit meant.
        guard let spliced = splicer.applied(), (try? JSONParser.parse(spliced)) == edited else { return ownLayout() }
        return spliced
    }
}

/// The byte edits that turn one document into the other, collected and then applied in one pass.
private struct Splicer {
    let layout: JSONLayout
    /// Non-overlapping: each replaces its range (empty for an insertion) with its bytes.
    private var edits: [(range: Range<Int>, bytes: [UInt8])] = []

    init(layout: JSONLayout) {
        self.layout = layout
    }

    /// Records the edits that make the value `old` at `range` read `new`. `context` is the style of the container
    /// that holds it, for a value written anew. The caller compares: a container's children are compared one
    /// by one, so that a large file is compared once, not once for each level above the change.
    mutating func change(_ old: JSONValue, to new: JSONValue, at range: Range<Int>, context: JSONStyle) {
        switch (old, new) {
        case let (.object(before), .object(after)) where !before.isEmpty:
            changeObject(before, to: after, at: range, context: context)
        case let (.array(before), .array(after)) where !before.isEmpty:
            changeArray(before, to: after, at: range, context: context)
        default:
            guard old != new else { return }
            let style = old.isFilledContainer ? JSONStyle.learned(from: range, in: layout, fallback: context) : context
            replace(range, with: new, style: style)
        }
    }

    /// Members kept are changed in place, members gone are cut out, new members follow the last one kept.
    private mutating func changeObject(_ before: [JSONMember], to after: [JSONMember], at range: Range<Int>,
                                       context: JSONStyle) {
        let members = layout.members(ofObjectAt: range.lowerBound)
        let style = JSONStyle.learned(from: range, starts: members.map(\.key.lowerBound), firstMember: members.first,
                                      in: layout, fallback: context)
        var wanted: [String: JSONValue] = [:]
        for member in after where wanted[member.key] == nil { wanted[member.key] = member.value }
        let keys = Set(before.map(\.key))
        let added = after.filter { !keys.contains($0.key) }
        guard members.count == before.count,
              let lastKept = before.indices.last(where: { wanted[before[$0].key] != nil }) else {
            return replace(range, with: .object(after), style: style)
        }
        for (index, member) in before.enumerated() {
            if let value = wanted[member.key], value != member.value {
                change(member.value, to: value, at: members[index].value, context: style)
            }
        }
        removeMembers(members.indices.filter { wanted[before[$0].key] == nil }, of: members)
        guard !added.isEmpty else { return }
        let anchor = members[lastKept]
        let separator = separator(before: anchor.key.lowerBound, style: style)
        let indent = Self.indent(after: separator) ?? layout.lineIndent(at: anchor.key.lowerBound)
        let colon = layout.bytes[anchor.key.upperBound..<anchor.value.lowerBound]
        var text: [UInt8] = []
        for member in added {
            text.append(UInt8(ascii: ","))
            text += separator
            JSONValue.appendQuoted(member.key, to: &text)
            text += colon
            text += style.render(member.value, indent: indent)
        }
        edits.append((anchor.value.upperBound..<anchor.value.upperBound, text))
    }

    /// Cuts out the members at `removed` (ascending; at least one member stays), each run of them with the
    /// comma before it, or, at the start of the object, with the comma after it.
    private mutating func removeMembers(_ removed: [Int], of members: [JSONLayout.Member]) {
        var index = 0
        while index < removed.count {
            var end = index
            while end + 1 < removed.count, removed[end + 1] == removed[end] + 1 { end += 1 }
            let (first, last) = (removed[index], removed[end])
            if first > 0 {
                edits.append((members[first - 1].value.upperBound..<members[last].value.upperBound, []))
            } else {
                edits.append((members[first].key.lowerBound..<members[last + 1].key.lowerBound, []))
            }
            index = end + 1
        }
    }

    /// Elements added at the end follow the last one, written like it; elements changed in place are changed
    /// there; any other change writes the array anew in its own style.
    private mutating func changeArray(_ before: [JSONValue], to after: [JSONValue], at range: Range<Int>,
                                      context: JSONStyle) {
        let elements = layout.elements(ofArrayAt: range.lowerBound)
        let style = JSONStyle.learned(from: range, starts: elements.map(\.lowerBound), firstMember: nil, in: layout,
                                      fallback: context)
        guard elements.count == before.count, let last = elements.last, let neighbour = before.last else {
            return replace(range, with: .array(after), style: style)
        }
        if after.count > before.count, after.prefix(before.count).elementsEqual(before) {
            let separator = separator(before: last.lowerBound, style: style)
            let indent = Self.indent(after: separator) ?? layout.lineIndent(at: last.lowerBound)
            let written = neighbour.isFilledContainer
                ? JSONStyle.learned(from: last, in: layout, fallback: style) : style
            var text: [UInt8] = []
            for element in after.dropFirst(before.count) {
                text.append(UInt8(ascii: ","))
                text += separator
                text += written.render(element, indent: indent)
            }
            edits.append((last.upperBound..<last.upperBound, text))
        } else if after.count == before.count {
            for index in before.indices where before[index] != after[index] {
                change(before[index], to: after[index], at: elements[index], context: style)
            }
        } else {
            replace(range, with: .array(after), style: style)
        }
    }

    private mutating func replace(_ range: Range<Int>, with value: JSONValue, style: JSONStyle) {
        edits.append((range, style.render(value, indent: layout.lineIndent(at: range.lowerBound))))
    }

    /// What goes between a comma and a new member or element that follows the one starting at `index`: the same
    /// as before that one, but where it is first on a line with its bracket, the container's space after a comma.
    private func separator(before index: Int, style: JSONStyle) -> [UInt8] {
        let space = layout.whitespace(before: index)
        return space.contains(0x0A) || !layout.isFirst(index) ? Array(space) : style.afterComma
    }

    /// The indentation a separator that starts a new line gives; nil when it stays on the line.
    private static func indent(after separator: [UInt8]) -> [UInt8]? {
        separator.lastIndex(of: 0x0A).map { Array(separator[($0 + 1)...]) }
    }

    /// The document with every edit made; nil if two edits overlap (a mistake here, never the file's).
    func applied() -> [UInt8]? {
        let bytes = layout.bytes
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + edits.reduce(0) { $0 + $1.bytes.count })
        var cursor = 0
        for edit in edits.sorted(by: { ($0.range.lowerBound, $0.range.upperBound) < ($1.range.lowerBound, $1.range.upperBound) }) {
            guard edit.range.lowerBound >= cursor else { return nil }
            output += bytes[cursor..<edit.range.lowerBound]
            output += edit.bytes
            cursor = edit.range.upperBound
        }
        output += bytes[cursor...]
        return output
    }
}

extension JSONValue {
    /// An array or object with something in it: one whose layout can be learned.
    fileprivate var isFilledContainer: Bool {
        switch self {
        case .array(let elements): return !elements.isEmpty
        case .object(let members): return !members.isEmpty
        default: return false
        }
    }
}
