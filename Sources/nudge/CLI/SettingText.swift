/// One row of settings.json's keys: its keys, the values it takes, its default and what it does.
struct SettingText {
    let keys: [String]
    let type: String
    let defaultValue: String
    let meaning: String

    /// As the manual lists it: "`quietHours.start`, `quietHours.end` (HH:MM; default none)".
    var block: ManualBlock {
        .entry(keys.map { "`\($0)`" }.joined(separator: ", ") + " (\(type); default \(defaultValue))", meaning)
    }

    /// As docs/files.md's table has it: "| `maxPending` | 1 to 10000 (64) | the budget: … |".
    var markdownRow: String {
        "| " + keys.map { "`\($0)`" }.joined(separator: ", ") + " | \(type) (\(defaultValue)) | \(meaning) |"
    }
}
