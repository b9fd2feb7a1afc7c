/// Zero-padded decimal digits written straight into a byte buffer: dates and instants are formatted for every
/// record of every plan, so this avoids building a String per field.
enum ASCIIDigits {
    /// Appends the decimal digits of a non-negative `value`, left-padded with zeros to `width`.
    static func append(_ value: Int, width: Int, to bytes: inout some ByteSink) {
        // The fields of dates and times: two or four digits, written without a loop.
        if width == 2, (0..<100).contains(value) {
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value / 10))
            bytes.append(UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value % 10))
            return
        }
        if width == 4, (0..<10_000).contains(value) {
            append(value / 100, width: 2, to: &bytes)
            append(value % 100, width: 2, to: &bytes)
            return
        }
        let digits = String(value.magnitude).utf8
        for _ in digits.count..<max(digits.count, width) {
            bytes.append(UInt8(ascii: "0"))
        }
        for digit in digits {
            bytes.append(digit)
        }
    }

    /// "YYYY-MM-DD" for years 0…9999 (the caller handles others).
    static func appendDate(_ date: LocalDate, to bytes: inout some ByteSink) {
        append(date.year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(date.month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        append(date.day, width: 2, to: &bytes)
    }
}
