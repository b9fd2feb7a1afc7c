/// A set of weekdays, as seven bits. (A `Set<Weekday>` would cost a search of every conformance record in the
/// binary the first time one is made, to learn that `Weekday` is Hashable.)
struct Weekdays: Equatable, Sendable, ExpressibleByArrayLiteral, CustomStringConvertible {
    private var bits: UInt8 = 0

    init() {}

    init(_ days: [Weekday]) {
        for day in days { insert(day) }
    }

    init(arrayLiteral days: Weekday...) {
        self.init(days)
    }

    /// All seven days, shared rather than built for every alarm that lists none.
    static let everyDay = Weekdays(Weekday.allCases)

    func contains(_ day: Weekday) -> Bool {
        bits & (1 << UInt8(day.index)) != 0
    }

    mutating func insert(_ day: Weekday) {
        bits |= 1 << UInt8(day.index)
    }

    var isEmpty: Bool { bits == 0 }

    /// The days in order, Monday first.
    var days: [Weekday] { Weekday.allCases.filter(contains) }

    var description: String {
        "[" + days.map(\.rawValue).joined(separator: ", ") + "]"
    }
}
