import FoundationEssentials

/// Everything the user's files say, decoded and validated: the input of planning.
public struct Household: Equatable, Sendable {
    public var settings = Settings()
    var pets: [Pet] = []
    public var alarms: [Alarm] = []
    public var trips: [Trip] = []
    public var streaks = StreakData()

    init(settings: Settings = Settings(), pets: [Pet] = [], alarms: [Alarm] = [], trips: [Trip] = [],
         streaks: StreakData = StreakData()) {
        self.settings = settings
        self.pets = pets
        self.alarms = alarms
        self.trips = trips
        self.streaks = streaks
    }
}
