/// A value for some of the user files, one stored optional per file: a dictionary keyed by `UserFile` would
/// cost every run a search of the binary's conformance records to learn that `UserFile` is Hashable.
public struct UserFileMap<Value>: ExpressibleByDictionaryLiteral {
    private var settings: Value?
    private var laundry: Value?
    private var alarms: Value?
    private var trips: Value?
    private var streaks: Value?

    init() {}

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

    var isEmpty: Bool {
        settings == nil && laundry == nil && alarms == nil && trips == nil && streaks == nil
    }
}

extension UserFileMap: Equatable where Value: Equatable {}
extension UserFileMap: Sendable where Value: Sendable {}
