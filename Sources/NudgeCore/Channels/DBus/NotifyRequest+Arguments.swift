/// A `NotifyRequest` as the words after `nudge desktop-wait … --`: one `key=value` per field, a `button=` per
/// button (`button=SNOOZE=Snooze`), no `sound=` for silence. Arguments, never a shell: any text is safe.
extension NotifyRequest {
    public var arguments: [String] {
        var words = ["app=\(appName)", "icon=\(icon)", "summary=\(summary)", "body=\(body)", "urgency=\(urgency)",
                     "category=\(category)", "expire=\(expireTimeout)"]
        if let sound { words.append("sound=\(sound)") }
        words += buttons.map { "button=\($0.action)=\($0.label)" }
        return words
    }

    /// The request the words describe; nil when a word is not one of them.
    public init?(arguments: [String]) {
        self.init()
        for word in arguments {
            guard let equals = word.firstIndex(of: "=") else { return nil }
            let value = String(word[word.index(after: equals)...])
            switch word[..<equals] {
            case "app": appName = value
            case "icon": icon = value
            case "summary": summary = value
            case "body": body = value
            case "urgency":
                guard let level = UInt8(value), level <= 2 else { return nil }
                urgency = level
            case "category": category = value
            case "expire":
                guard let milliseconds = Int32(value) else { return nil }
                expireTimeout = milliseconds
            case "sound": sound = value
            case "button":
                guard let split = value.firstIndex(of: "=") else { return nil }
                buttons.append(Button(action: String(value[..<split]), label: String(value[value.index(after: split)...])))
            default: return nil
            }
        }
    }
}
