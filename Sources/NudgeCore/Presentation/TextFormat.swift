import Foundation

/// Small formatting helpers for what people read in the terminal: local times and "in 12 min".
public enum TextFormat {
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// `Sat 21 Nov 08:15` in the clock's zone.
    public static func localStamp(_ instant: Date, _ clock: WallClock) -> String {
        let local = clock.localDateTime(of: instant)
        let weekday = local.date.weekday.rawValue.prefix(1).uppercased() + local.date.weekday.rawValue.dropFirst()
        return "\(weekday) \(pad(local.date.day)) \(monthNames[local.date.month - 1]) \(pad(local.hour)):\(pad(local.minute))"
    }

    /// `2026-11-21 08:15` in the clock's zone.
    public static func localDateTime(_ instant: Date, _ clock: WallClock) -> String {
        let local = clock.localDateTime(of: instant)
        return "\(local.date) \(pad(local.hour)):\(pad(local.minute))"
    }

    /// "in 12 min", "in 2 h 5 min", "in 3 days", "now", "12 min ago".
    public static func relative(_ instant: Date, from now: Date) -> String {
        let seconds = Int(instant.timeIntervalSince(now).rounded())
        if abs(seconds) < 60 { return "now" }
        let text = span(abs(seconds))
        return seconds > 0 ? "in \(text)" : "\(text) ago"
    }

    /// "45 s", "12 min", "2 h 5 min", "3 days".
    public static func span(_ seconds: Int) -> String {
        if seconds < 60 { return "\(seconds) s" }
        let minutes = seconds / 60
        if minutes < 60 { return "\(minutes) min" }
        let hours = minutes / 60
        if hours < 48 { return minutes % 60 == 0 ? "\(hours) h" : "\(hours) h \(minutes % 60) min" }
        return "\(hours / 24) days"
    }

    static func pad(_ value: Int) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Pads `text` with spaces to `width` characters.
    static func column(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}
