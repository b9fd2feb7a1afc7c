/// A value for some of the user files: what `UserFileMap<Value>` would hold, kept in an array in the files'
/// declaration order. (The first dictionary keyed by `UserFile` cost a search of every conformance record in the
/// binary to learn that `UserFile` is Hashable — about 0.1 M instructions, every run.)
public struct UserFileMap<Value>: ExpressibleByDictionaryLiteral {
    private var values: [Value?] = Array(repeating: nil, count: UserFile.allCases.count)

    public init() {}

    public init(dictionaryLiteral elements: (UserFile, Value)...) {
        for (file, value) in elements { self[file] = value }
    }

    public subscript(file: UserFile) -> Value? {
        get { values[file.index] }
        set { values[file.index] = newValue }
    }

    /// The files that have a value, in declaration order (settings first).
    public var files: [UserFile] { UserFile.allCases.filter { values[$0.index] != nil } }

    public var isEmpty: Bool { values.allSatisfy { $0 == nil } }
}

extension UserFileMap: Equatable where Value: Equatable {}
extension UserFileMap: Sendable where Value: Sendable {}
