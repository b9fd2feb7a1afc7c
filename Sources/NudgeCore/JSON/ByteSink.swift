import FoundationEssentials

/// Where the JSON and date writers put their bytes: a `[UInt8]` for short texts, a `ByteBuffer` for a plan.
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

/// A growable run of bytes in memory it allocates itself, for the plan writer.
///
/// Why not `[UInt8]`: every `append` of an array checks that the storage is unique and large enough, and a
/// plan of 10,000 records is two million small appends; they were a third of such a run (callgrind). Here an
/// append is a capacity check and a store.
final class ByteBuffer: ByteSink {
    private var start: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int) {
        self.capacity = max(capacity, 64)
        start = UnsafeMutablePointer<UInt8>.allocate(capacity: self.capacity)
    }

    deinit {
        start.deallocate()
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        if count == capacity { grow(toHold: count + 1) }
        start[count] = byte
        count += 1
    }

    @inline(__always)
    func append(bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        if count + bytes.count > capacity { grow(toHold: count + bytes.count) }
        (start + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Room for `count` more bytes, written straight into the buffer: `body` gets where they go and returns how
    /// many it wrote (at most `count`). One capacity check for a run of small writes (an instant, a string).
    @inline(__always)
    func write(upTo count: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        if self.count + count > capacity { grow(toHold: self.count + count) }
        self.count += body(start + self.count)
    }

    /// `ByteSink.append(text:)` without needing a `var`: a buffer is a reference. Inlined, so that the literal's
    /// length is a constant and the copy a few moves: called, each of the 60,000 in a plan of 10,000 records cost 50
    /// instructions.
    @inline(__always)
    func append(text: StaticString) {
        text.withUTF8Buffer { append(bytes: $0) }
    }

    /// At least doubles the capacity, so appending stays linear.
    private func grow(toHold needed: Int) {
        let newCapacity = max(needed, capacity * 2)
        let newStart = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newStart.update(from: start, count: count)
        start.deallocate()
        start = newStart
        capacity = newCapacity
    }

    /// A copy of the bytes written so far (one memcpy).
    var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            buffer.baseAddress?.update(from: start, count: count)
            initialized = count
        }
    }
}
