/// When asr begins: when a shadow is its noon length plus the object's length (`standard`: Shafi'i, Maliki,
/// Hanbali) or plus twice it (`hanafi`).
enum AsrSchool: String, CaseIterable, Sendable {
    case standard, hanafi

    var shadowLength: Double { self == .standard ? 1 : 2 }
}
