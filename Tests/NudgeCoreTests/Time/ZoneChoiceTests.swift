import XCTest
@testable import NudgeCore

/// Which zone nudge works in, and that it never uses another than the one `TZ` asks for without saying so
/// (docs/promises.md, never at the wrong hour). The files a real system has are replaced by literal answers.
final class ZoneChoiceTests: XCTestCase {
    private let system = Fixtures.zone("Etc/UTC")

    /// The choice for `tz`, with the system zone Etc/UTC, zone files only for `files`, and `following` as the
    /// zone that keeps the same time as a daylight rule.
    private func choose(_ tz: String?, settings: String? = nil, files: [String: Zone] = [:],
                        following: Zone? = nil) -> ZoneChoice {
        ZoneChoice.choose(settingsZone: settings, tz: tz, zoneNamed: Fixtures.zoneNamed, system: { system },
                          file: { files[$0] }, following: { _ in following })
    }

    func testIANANamesAndTheirColonFormAreHonoured() {
        for tz in ["Europe/Berlin", ":Europe/Berlin"] {
            let choice = choose(tz)
            XCTAssertEqual(choice.zone.identifier, "Europe/Berlin", tz)
            XCTAssertNil(choice.warning, tz)
        }
        XCTAssertEqual(choose("EST5EDT").zone.identifier, "EST5EDT", "an IANA name before a POSIX string")
    }

    func testAPathIsReadAsAZoneFile() {
        let files = ["/usr/share/zoneinfo/Asia/Tokyo": Fixtures.tokyo, "/etc/localtime": Fixtures.berlin]
        XCTAssertEqual(choose(":/usr/share/zoneinfo/Asia/Tokyo", files: files).zone.identifier, "Asia/Tokyo")
        XCTAssertEqual(choose(":/etc/localtime", files: files).zone.identifier, "Europe/Berlin")
        let missing = choose(":/nowhere/Tokyo", files: files)
        XCTAssertEqual(missing.zone.identifier, "Etc/UTC")
        XCTAssertEqual(missing.warning, "TZ=\":/nowhere/Tokyo\" is not a time zone nudge knows; using Etc/UTC instead "
            + "(set settings.json timeZone to your zone's IANA name, such as Europe/Berlin)")
    }

    func testARuleWithoutDaylightTimeIsHonouredAsAFixedOffset() {
        for (tz, east) in [("JST-9", 32_400), ("UTC0", 0), ("<+0530>-5:30", 19_800), ("GMT-9", 32_400),
                           ("UTC+5", -18_000)] {
            let choice = choose(tz)
            XCTAssertEqual(choice.zone.secondsFromGMT(for: Fixtures.instant("2026-11-21T08:00:00Z")), east, tz)
            XCTAssertNil(choice.warning, tz)
        }
    }

    func testARuleWithDaylightTimeUsesAZoneWithTheSameRuleAndSaysSo() {
        let choice = choose("CET-1CEST,M3.5.0,M10.5.0/3", following: Fixtures.berlin)
        XCTAssertEqual(choice.zone.identifier, "Europe/Berlin")
        XCTAssertEqual(choice.warning, "TZ=\"CET-1CEST,M3.5.0,M10.5.0/3\" is a POSIX rule nudge cannot follow "
            + "exactly; using Europe/Berlin instead, which follows the same rule today (set settings.json timeZone "
            + "to an IANA name such as Europe/Berlin)")
    }

    func testARuleWithDaylightTimeNoZoneFollowsFallsBackToTheSystemZoneAndSaysSo() {
        let choice = choose("XXX3YYY,M1.1.1,M2.2.2")
        XCTAssertEqual(choice.zone.identifier, "Etc/UTC")
        XCTAssertEqual(choice.warning, "TZ=\"XXX3YYY,M1.1.1,M2.2.2\" is a POSIX rule nudge cannot follow exactly; "
            + "using Etc/UTC instead, whose times may differ from it (set settings.json timeZone to your zone's IANA "
            + "name, such as Europe/Berlin)")
    }

    func testWhatIsNoZoneAtAllIsNeverIgnoredSilently() {
        for tz in ["Mars/Olympus_Mons", "utc", "UT+5", "JST-99"] {
            let choice = choose(tz)
            XCTAssertEqual(choice.zone.identifier, "Etc/UTC", tz)
            XCTAssertEqual(choice.warning, "TZ=\"\(tz)\" is not a time zone nudge knows; using Etc/UTC instead (set "
                + "settings.json timeZone to your zone's IANA name, such as Europe/Berlin)", tz)
        }
    }

    func testNoTZMeansTheSystemZoneAndSettingsWin() {
        XCTAssertEqual(choose(nil).zone.identifier, "Etc/UTC")
        XCTAssertNil(choose("").warning)
        let settings = choose("CET-1CEST,M3.5.0,M10.5.0/3", settings: "Asia/Tokyo")
        XCTAssertEqual(settings.zone.identifier, "Asia/Tokyo")
        XCTAssertNil(settings.warning)
    }

    func testSettingsNameForAZone() {
        XCTAssertEqual(ZoneChoice.settingsName(for: Fixtures.berlin, zoneNamed: Fixtures.zoneNamed), "Europe/Berlin")
        XCTAssertEqual(ZoneChoice.settingsName(for: Zone(secondsFromGMT: 32_400)!, zoneNamed: Fixtures.zoneNamed),
                       "Etc/GMT-9")
        XCTAssertEqual(ZoneChoice.settingsName(for: Zone(secondsFromGMT: -18_000)!, zoneNamed: Fixtures.zoneNamed),
                       "Etc/GMT+5")
        XCTAssertNil(ZoneChoice.settingsName(for: Zone(secondsFromGMT: 19_800)!, zoneNamed: Fixtures.zoneNamed))
    }
}
