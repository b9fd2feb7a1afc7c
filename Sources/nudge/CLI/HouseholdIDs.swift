/// The ids of one kind that only the data directory knows, which the completion scripts ask
/// `nudge complete-values KIND` for as a person types: the pets of laundry.json, the games of streaks.json, the
/// trips of trips.json, and the notifications delivered lately.
enum HouseholdIDs: String, CaseIterable {
    case pets, games, trips, deliveries

    /// How many of the last deliveries are offered: the ones a person is likely to snooze or act on.
    static let recentDeliveries = 20

    /// "pets|games|trips|deliveries", for the usage line (a loop, as `CompletionShell.choices` says why).
    static var choices: String {
        var text = ""
        for kind in allCases {
            text += (text.isEmpty ? "" : "|") + kind.rawValue
        }
        return text
    }
}
