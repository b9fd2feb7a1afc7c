import Foundation
import XCTest
@testable import NudgeCore

/// `prayerTimes.polar` against an independent implementation written from docs/prayer-times.md
/// (`scripts/polar-oracle.py`, on PyEphem's ephemeris): for three places past the polar circles and each option,
/// every date that lacks a time of its own takes it from the same source (the latitude or date) as the oracle's,
/// at a time within a minute of it.
///
/// Two things the rule does not decide are counted and printed, not failed:
/// - The nearest latitude or day is where the sun only just reaches an altitude, so its time is ill-conditioned:
///   where the sun's altitude changes by less than 0.05° a minute (a sunset that skims the horizon, asr on the
///   last day with a noon sun), a hundredth of a degree between the two astronomies moves it by minutes. Those
///   times are "grazing" and not compared.
/// - At such an edge the ephemeris and nudge's formulas may disagree on whether the sun reaches the altitude at
///   all on one day or latitude: then every date that resolves from there takes the neighbour. Such times must
///   stay under 1% of those resolved.
///
/// Every 4th day of 2026 on every `swift test`; every day with `NUDGE_PRAYER_YEAR=1` (set by `.ci/run`). Without
/// python3 or ephem the test is skipped, except under CI (`CI=true`), where it fails.
final class PolarOracleTests: XCTestCase {
    static let places: [(name: String, latitude: Double, longitude: Double)] = [
        ("Tromsø", 69.65, 18.96), ("Longyearbyen", 78.22, 15.65), ("McMurdo", -77.85, 166.67),
    ]
    static let options: [PolarResolution] = [.nearestLatitude, .nearestDay, .referenceLatitude(48.5)]

    func testAgreesWithAnIndependentImplementation() throws {
        let first = LocalDate(year: 2026, month: 1, day: 1)!
        let dates = stride(from: 0, to: 365, by: PrayerOracleTests.exhaustive ? 1 : 4).map { first.adding(days: $0) }
        let rows = try oracleRows(dates: dates)
        var compared = 0, grazing = 0, largest = 0.0, largestGrazing = 0.0, edgeDates = 0
        var edges: Set<String> = [], neighbours = 0
        var failures: [String] = []
        var oracle: [String: [String: Any]] = [:]
        for row in rows {
            guard let place = row["p"] as? Int, let option = row["o"] as? Int, let date = row["d"] as? String else {
                continue
            }
            oracle["\(place) \(option) \(date)"] = row["times"] as? [String: Any] ?? [:]
        }
        for (placeIndex, place) in Self.places.enumerated() {
            for (optionIndex, option) in Self.options.enumerated() {
                var settings = PrayerSettings(latitude: place.latitude, longitude: place.longitude)
                settings.polar = option
                for date in dates {
                    let day = PrayerDay(solarDate: date, settings: settings)!
                    let theirs = oracle["\(placeIndex) \(optionIndex) \(date)"] ?? [:]
                    for prayer in Prayer.allCases {
                        let label = "\(place.name) polar \(option) \(date) \(prayer)"
                        let mine = day.resolution(of: prayer)
                        guard let reference = theirs[prayer.rawValue] else {
                            // The oracle has the place's own time: so must nudge, unless at the edge.
                            if mine != nil { edgeDates += 1 }
                            continue
                        }
                        guard let pair = reference as? [Any], let seconds = pair[0] as? Double,
                              let source = pair[1] as? [String: Any] else {
                            if case .success = day.time(of: prayer) { failures.append("\(label): oracle has none") }
                            continue
                        }
                        guard case let .success(time) = day.time(of: prayer) else {
                            failures.append("\(label): nudge has none, the oracle \(seconds)")
                            continue
                        }
                        guard let mine else {
                            edgeDates += 1
                            continue
                        }
                        switch (mine.source, source["latitude"] as? Double, (source["date"] as? String)) {
                        case let (.latitude(latitude), theirLatitude?, nil) where abs(latitude - theirLatitude) < 1e-6:
                            break
                        case let (.date(date), nil, theirDate?) where date.description == theirDate:
                            break
                        case let (.latitude(latitude), theirLatitude?, nil) where abs(latitude - theirLatitude) <= 0.5 + 1e-6:
                            edges.insert("\(place.name) \(option) \(mine.source) \(theirLatitude)")
                            neighbours += 1
                            continue
                        case let (.date(date), nil, theirDate?)
                            where [-1, 1].map({ date.adding(days: $0).description }).contains(theirDate):
                            edges.insert("\(place.name) \(option) \(mine.source) \(theirDate)")
                            neighbours += 1
                            continue
                        default:
                            failures.append("\(label): nudge took it from \(mine.source), the oracle from \(source)")
                            continue
                        }
                        guard let rate = pair[2] as? Double, rate >= 0.05 else {
                            grazing += 1
                            largestGrazing = max(largestGrazing, abs(time - seconds) / 60)
                            continue
                        }
                        compared += 1
                        let difference = abs(time - seconds) / 60
                        largest = max(largest, difference)
                        if difference > 1 { failures.append("\(label): \(difference) min apart") }
                    }
                }
            }
        }
        print("Polar oracle (\(PrayerOracleTests.exhaustive ? "every day of 2026" : "every 4th day")): "
              + "\(Self.places.count) places × \(Self.options.count) options: \(compared) resolved times compared, "
              + "largest difference \(PrayerOracleTests.minutes(largest)) min, \(grazing) grazing (largest difference \(PrayerOracleTests.minutes(largestGrazing)) min); \(edgeDates) "
              + "dates with a time of their own on one side only; \(neighbours) times from a neighbour of the oracle's "
              + "source, at \(edges.count) edges")
        XCTAssertGreaterThan(compared, 0)
        XCTAssertLessThanOrEqual(edgeDates, 12, "dates with their own time on one side only should stay rare")
        XCTAssertLessThanOrEqual(neighbours * 100, compared + grazing + neighbours,
                                 "times from a neighbouring source should stay rare: \(edges.sorted())")
        XCTAssertEqual(failures.count, 0, failures.joined(separator: "\n"))
    }

    /// Runs scripts/polar-oracle.py once; skips (fails under CI) without python3 or ephem.
    private func oracleRows(dates: [LocalDate]) throws -> [[String: Any]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        guard let python = PrayerOracleTests.onPath("python3") else { return try PrayerOracleTests.missing("python3 is not installed") }
        let request: [String: Any] = [
            "places": Self.places.map { [$0.name, $0.latitude, $0.longitude] as [Any] },
            "dates": dates.map(\.description),
            "polar": Self.options.map { option -> Any in
                if case let .referenceLatitude(latitude) = option { return latitude }
                return option.description
            },
        ]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [root.appendingPathComponent("scripts/polar-oracle.py").path]
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: request))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        if stderr.contains("ModuleNotFoundError") { return try PrayerOracleTests.missing("ephem is not installed (pip install ephem)") }
        XCTAssertEqual(process.terminationStatus, 0, stderr)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        return object?["rows"] as? [[String: Any]] ?? []
    }
}
