/// A value for some of the user files: what `UserFileMap<Value>` would hold, one stored optional per file.
/// (The first dictionary keyed by `UserFile` cost a search of every conformance record in the binary to learn that
/// `UserFile` is Hashable — about 0.1 M instructions, every run. An array `[Value?]` in its place cost the run
/// metadata for `Optional<Value>`, `Array<Value?>` and its storage class for each `Value`: ~0.04 M.)
public struct UserFileMap<Value>: ExpressibleByDictionaryLiteral {
    private var settings: Value?
    private var laundry: Value?
    private var alarms: Value?
    private var trips: Value?
    private var streaks: Value?

    public init() {}

    public init(dictionaryLiteral elements: (UserFile, Value)...) {
        for (file, value) in elements { self[file] = value }
    }

    public subscript(file: UserFile) -> Value? {
        get {
            switch file {
            case .settings: settings
            case .laundry: laundry
            case .alarms: alarms
            case .trips: trips
            case .streaks: streaks
            }
        }
        set {
            switch file {
            case .settings: settings = newValue
            case .laundry: laundry = newValue
            case .alarms: alarms = newValue
            case .trips: trips = newValue
            case .streaks: streaks = newValue
            }
        }
    }

    /// The files that have a value, in declaration order (settings first).
    public var files: [UserFile] { UserFile.allCases.filter { self[$0] != nil } }

    public var isEmpty: Bool {
        settings == nil && laundry == nil && alarms == nil && trips == nil && streaks == nil
    }
}

extension UserFileMap: Equatable where Value: Equatable {}
extension UserFileMap: Sendable where Value: Sendable {}
