/// A day of the week, spelled the way the user files spell it ("mon"…"sun").
///
/// Cases are declared in ISO 8601 order (Monday first), so `allCases`,
/// `Comparable` and `isoNumber` all agree: `mon < tue < … < sun`. The raw
/// value is the exact JSON spelling; `Weekday(rawValue:)` is therefore the
/// strict parser (lowercase only, "Mon" or "monday" are nil).
enum Weekday: String, CaseIterable, Sendable, Comparable {
    case mon
    case tue
    case wed
    case thu
    case fri
    case sat
    case sun

    /// 0 for Monday through 6 for Sunday.
    var index: Int {
        switch self {
        case .mon: return 0
        case .tue: return 1
        case .wed: return 2
        case .thu: return 3
        case .fri: return 4
        case .sat: return 5
        case .sun: return 6
        }
    }

    /// ISO 8601 weekday number: 1 for Monday through 7 for Sunday.
    var isoNumber: Int { index + 1 }

    /// The weekday with `index` (0 = Monday … 6 = Sunday), taken modulo 7 so
    /// that any integer, including negative ones, maps to a weekday.
    init(index: Int) {
        let normalized = ((index % 7) + 7) % 7
        switch normalized {
        case 0: self = .mon
        case 1: self = .tue
        case 2: self = .wed
        case 3: self = .thu
        case 4: self = .fri
        case 5: self = .sat
        default: self = .sun
        }
    }

    /// The weekday of the day `daysSinceEpoch` days after 1970-01-01, which
    /// was a Thursday (index 3). Pure integer arithmetic; works for negative
    /// day numbers (dates before 1970) too.
    init(daysSinceEpoch: Int) {
        // `% 7` first keeps the addition far from overflow for any Int.
        self.init(index: daysSinceEpoch % 7 + 3)
    }

    /// The weekday `days` days later (negative: earlier).
    func adding(days: Int) -> Weekday {
        Weekday(index: index + days % 7)
    }

    /// Orders by ISO position in the week, Monday first.
    static func < (lhs: Weekday, rhs: Weekday) -> Bool {
        lhs.index < rhs.index
    }
}
