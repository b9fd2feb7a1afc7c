import FoundationEssentials

/// Where the JSON and date writers put their bytes.
protocol ByteSink {
    mutating func append(_ byte: UInt8)
    mutating func append(bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteSink {
    /// Appends the UTF-8 bytes of a literal.
    mutating func append(text: StaticString) {
        text.withUTF8Buffer { append(bytes: $0) }
    }
}

extension Array: ByteSink where Element == UInt8 {
    mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}
