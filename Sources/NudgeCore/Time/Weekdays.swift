/// A set of weekdays, as seven bits. (A `Set<Weekday>` would cost a search of every conformance record in the
/// binary the first time one is made, to learn that `Weekday` is Hashable.)
public struct Weekdays: Equatable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var bits: UInt8 = 0

    public init() {}

    public init(_ days: [Weekday]) {
        for day in days { insert(day) }
    }

    public init(arrayLiteral days: Weekday...) {
        self.init(days)
    }

    /// All seven days, shared rather than built for every alarm that lists none.
    public static let everyDay = Weekdays(Weekday.allCases)

    public func contains(_ day: Weekday) -> Bool {
        bits & (1 << UInt8(day.index)) != 0
    }

    public mutating func insert(_ day: Weekday) {
        bits |= 1 << UInt8(day.index)
    }

    public var isEmpty: Bool { bits == 0 }

    /// The days in order, Monday first.
    public var days: [Weekday] { Weekday.allCases.filter(contains) }

    public var description: String {
        "[" + days.map(\.rawValue).joined(separator: ", ") + "]"
    }
}
