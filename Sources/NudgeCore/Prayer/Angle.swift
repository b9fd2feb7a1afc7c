/// Degrees and radians, and angles brought into one turn.
enum Angle {
    static func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
    static func degrees(_ radians: Double) -> Double { radians * 180 / .pi }

    /// `value` brought into 0..<360.
    static func unwound(_ value: Double) -> Double { value - 360 * (value / 360).rounded(.down) }

    /// `value` brought into −180…180.
    static func closest(_ value: Double) -> Double {
        (-180...180).contains(value) ? value : value - 360 * (value / 360).rounded()
    }
}
