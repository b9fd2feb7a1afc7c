/// A place inside a JSON document, written the way a person would type it: `alarms[1].time`.
///
/// Array indices are 0-based, as in every JSON tool a user is likely to reach for.
public struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    private(set) var components: [Component] = []

    /// The document itself.
    static let root = KeyPath()

    func appending(_ key: String) -> KeyPath {
        var copy = self
        copy.components.append(.key(key))
        return copy
    }

    func appending(index: Int) -> KeyPath {
        var copy = self
        copy.components.append(.index(index))
        return copy
    }

    var isRoot: Bool { components.isEmpty }

    /// The first key of the path (`quietHours` of `quietHours.end`), nil for the root or an index.
    var firstKey: String? {
        guard case .key(let key)? = components.first else { return nil }
        return key
    }

    /// The key when the path is a single member of the document (`alarms`), nil otherwise.
    var topLevelKey: String? {
        guard components.count == 1, case .key(let key) = components[0] else { return nil }
        return key
    }

    public var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text
    }
}
