import FoundationEssentials

extension Data {
    /// The UTF-8 bytes of `text`. (`Data(text.utf8)` asks the runtime whether the view is `ContiguousBytes`: a
    /// search of every conformance record the first time, a sixth of a small run's instructions.)
    public init(utf8 text: String) {
        var text = text
        self = text.withUTF8 { Data(buffer: $0) }
    }
}
