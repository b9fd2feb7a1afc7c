import FoundationEssentials

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
    static func span(_ seconds: Int) -> String {
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

/// Text operations in the standard library alone. Foundation's `trimmingCharacters` and `range(of:)` go through
/// NSString on Linux, whose first use in a run costs more than the whole morning-message rule.
extension String {
    /// `self` without leading and trailing white space or line breaks: the characters Foundation's
    /// `.whitespacesAndNewlines` trims on Linux, which are Unicode's White_Space and the zero-width space.
    public var trimmingWhitespace: String {
        let scalars = unicodeScalars
        let isBlank = { (scalar: Unicode.Scalar) in scalar.properties.isWhitespace || scalar == "\u{200B}" }
        guard let first = scalars.firstIndex(where: { !isBlank($0) }),
              let last = scalars.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(scalars[first...last])
    }
}

extension Substring {
    /// The index range of the first occurrence of `pattern`, compared byte for byte (both are UTF-8), or nil.
    func firstByteRange(of pattern: String) -> Range<String.Index>? {
        let text = utf8
        let needle = Array(pattern.utf8)
        guard let head = needle.first else { return nil }
        var start = text.startIndex
        while let candidate = text[start...].firstIndex(of: head) {
            var end = candidate
            var matched = 0
            while matched < needle.count, end < text.endIndex, text[end] == needle[matched] {
                matched += 1
                end = text.index(after: end)
            }
            if matched == needle.count { return candidate..<end }
            start = text.index(after: candidate)
        }
        return nil
    }
}

extension String {
    /// `parts` one after another, built in one allocation.
    ///
    /// Why not interpolation: it appends piece by piece, growing the string each time, and the planner builds an
    /// id and a text this way for each of up to 100,000 notifications a run.
    init(concatenating parts: String...) {
        var total = 0
        for part in parts { total += part.utf8.count }
        self.init(unsafeUninitializedCapacity: total) { buffer in
            var offset = 0
            for var part in parts {
                part.withUTF8 { bytes in
                    guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return }
                    (target + offset).update(from: source, count: bytes.count)
                    offset += bytes.count
                }
            }
            return offset
        }
    }

    /// "HH:MM" of a time of day, zero-padded.
    static func hourMinute(_ hour: Int, _ minute: Int) -> String {
        String(unsafeUninitializedCapacity: 5) { buffer in
            let digit = { (value: Int) in UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value) }
            buffer[0] = digit(hour / 10 % 10)
            buffer[1] = digit(hour % 10)
            buffer[2] = UInt8(ascii: ":")
            buffer[3] = digit(minute / 10 % 10)
            buffer[4] = digit(minute % 10)
            return 5
        }
    }
}
