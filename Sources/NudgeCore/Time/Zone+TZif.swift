extension Zone {
    /// The zone a TZif file describes (RFC 8536, any version), named `identifier`; nil when `bytes` is not
    /// such a file. Reads the 64-bit block of version 2 and later (the 32-bit block of version 1), and the
    /// footer: the POSIX TZ string that holds after the last transition.
    public init?(identifier: String, tzif bytes: [UInt8]) {
        var reader = TZifBytes(bytes: bytes)
        guard let header = reader.header() else { return nil }
        var timeWidth = 4
        var counts = header.counts
        if header.version >= 2 {
            // Skip the version 1 block; the second header describes the 64-bit block that follows it.
            guard reader.skip(counts.dataSize(timeWidth: 4)), let second = reader.header() else { return nil }
            counts = second.counts
            timeWidth = 8
        }
        guard counts.types > 0, let times = reader.integers(counts.transitions, width: timeWidth),
              let typeIndices = reader.integers(counts.transitions, width: 1), let types = reader.types(counts.types),
              typeIndices.allSatisfy({ $0 >= 0 && $0 < types.count }),
              zip(times, times.dropFirst()).allSatisfy({ $0 < $1 }),
              reader.skip(counts.characters + counts.leapSeconds * (timeWidth + 4) + counts.standardFlags
                          + counts.utFlags)
        else { return nil }
        var rule: PosixTimeZone?
        if header.version >= 2 {
            guard let footer = reader.footer() else { return nil }
            if !footer.isEmpty {
                guard let parsed = PosixTimeZone.parse(footer) else { return nil }
                rule = parsed
            }
        }
        if times.isEmpty, let rule, rule.daylight == nil {
            // Only a footer without daylight time: one fixed offset.
            self.init(identifier: identifier, transitions: [], offsets: [], initialOffset: rule.standardOffset,
                      rule: nil)
            return
        }
        // Without daylight time the footer repeats the last transition's offset, which then holds for ever.
        self.init(identifier: identifier, transitions: times, offsets: typeIndices.map { types[$0] },
                  initialOffset: types[0], rule: rule?.daylight == nil ? nil : rule)
    }
}

/// The counts of a TZif header, in the file's order.
private struct TZifCounts {
    var utFlags: Int
    var standardFlags: Int
    var leapSeconds: Int
    var transitions: Int
    var types: Int
    var characters: Int

    /// Bytes of the data block these counts describe.
    func dataSize(timeWidth: Int) -> Int {
        transitions * timeWidth + transitions + types * 6 + characters + leapSeconds * (timeWidth + 4)
            + standardFlags + utFlags
    }
}

/// A cursor over the bytes of a TZif file; every read checks the length.
private struct TZifBytes {
    let bytes: [UInt8]
    var index = 0

    mutating func header() -> (version: Int, counts: TZifCounts)? {
        guard index + 44 <= bytes.count, bytes[index..<(index + 4)].elementsEqual("TZif".utf8) else { return nil }
        let versionByte = bytes[index + 4]
        let version = versionByte == 0 ? 1 : Int(versionByte) - Int(UInt8(ascii: "0"))
        guard (1...9).contains(version) else { return nil }
        index += 20
        guard let values = integers(6, width: 4), values.allSatisfy({ $0 >= 0 }) else { return nil }
        return (version, TZifCounts(utFlags: values[0], standardFlags: values[1], leapSeconds: values[2],
                                    transitions: values[3], types: values[4], characters: values[5]))
    }

    mutating func skip(_ count: Int) -> Bool {
        guard count >= 0, count <= bytes.count - index else { return false }
        index += count
        return true
    }

    /// `count` big-endian two's complement integers of `width` bytes (1 is read unsigned).
    mutating func integers(_ count: Int, width: Int) -> [Int]? {
        guard count >= 0, count <= (bytes.count - index) / width else { return nil }
        var values: [Int] = []
        values.reserveCapacity(count)
        for _ in 0..<count {
            values.append(integer(width: width))
        }
        return values
    }

    /// The UT offsets of `count` local time types (6 bytes each: offset, isdst, designation index).
    mutating func types(_ count: Int) -> [Int]? {
        guard count <= (bytes.count - index) / 6 else { return nil }
        var offsets: [Int] = []
        for _ in 0..<count {
            offsets.append(integer(width: 4))
            index += 2
        }
        return offsets
    }

    /// The footer: the text between two newlines.
    mutating func footer() -> String? {
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\n"),
              let end = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        defer { index = end + 1 }
        return String(decoding: bytes[(index + 1)..<end], as: UTF8.self)
    }

    private mutating func integer(width: Int) -> Int {
        defer { index += width }
        return bytes.withUnsafeBytes { raw in
            switch width {
            case 8: return Int(Int64(bigEndian: raw.loadUnaligned(fromByteOffset: index, as: Int64.self)))
            case 4: return Int(Int32(bigEndian: raw.loadUnaligned(fromByteOffset: index, as: Int32.self)))
            default: return Int(raw[index])
            }
        }
    }
}
