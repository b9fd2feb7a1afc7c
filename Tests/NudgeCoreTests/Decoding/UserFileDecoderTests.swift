import XCTest
@testable import NudgeCore

/// Decoding of the user files against literal JSON: defaults, every value check, key paths and positions.
final class UserFileDecoderTests: XCTestCase {
    private func data(_ text: String) -> [UInt8] { Array(text.utf8) }

    private func messages(_ report: FileReport) -> [String] { report.problems.map(\.description) }

    func testEmptySettingsTakeEveryDefault() {
        let (settings, report) = UserFileDecoder.settings(data("{}"), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings, Settings())
        XCTAssertTrue(report.isValid)
        XCTAssertEqual(Settings().maxPending, 64)
        XCTAssertEqual(Settings().laundry.foldReminderMinutes, 30)
        XCTAssertEqual(Settings().streaks.time, Fixtures.time("19:00"))
        XCTAssertNil(Settings().quietHours)
        XCTAssertNil(Settings().deliverCommand)
    }

    func testFullSettingsDecode() {
        let (settings, report) = UserFileDecoder.settings(data("""
        { "version": 1, "timeZone": "Europe/Berlin",
          "notifications": { "enabled": false, "sound": false, "badge": true },
          "maxPending": 10, "quietHours": { "start": "22:00", "end": "07:00" },
          "deliver": { "command": ["notify-send", "--app-name=nudge", "{title}", "{body}"] },
          "laundry": { "enabled": true, "warnBeforeMinutes": 5, "foldReminderMinutes": 20, "healthWarnAfterDays": 3 },
          "commute": { "enabled": false, "defaultBufferMinutes": 15 },
          "personalized": { "enabled": true, "firstName": "Sam", "time": "07:45" },
          "alarms": { "enabled": true, "snoozeMinutes": 9 },
          "streaks": { "enabled": true, "time": "20:00", "smart": true } }
        """), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(settings?.timeZone, "Europe/Berlin")
        XCTAssertEqual(settings?.notifications.enabled, false)
        XCTAssertEqual(settings?.notifications.sound, false)
        XCTAssertEqual(settings?.maxPending, 10)
        XCTAssertEqual(settings?.quietHours, QuietHours(start: Fixtures.time("22:00"), end: Fixtures.time("07:00")))
        XCTAssertEqual(settings?.deliverCommand, ["notify-send", "--app-name=nudge", "{title}", "{body}"])
        XCTAssertEqual(settings?.laundry.warnBeforeMinutes, 5)
        XCTAssertEqual(settings?.laundry.healthWarnAfterDays, 3)
        XCTAssertEqual(settings?.commute.defaultBufferMinutes, 15)
        XCTAssertEqual(settings?.personalized.firstName, "Sam")
        XCTAssertEqual(settings?.personalized.time, Fixtures.time("07:45"))
        XCTAssertEqual(settings?.alarms.snoozeMinutes, 9)
        XCTAssertEqual(settings?.streaks.smart, true)
    }

    func testSettingsValueErrorsNameTheirKeyPaths() {
        let (settings, report) = UserFileDecoder.settings(data("""
        { "timeZone": "Mars/Olympus", "maxPending": 0, "deliver": { "command": "notify-send" },
          "personalized": { "enabled": true }, "quietHours": { "start": "22:00", "end": "7:00" },
          "laundry": { "warnBeforeMinutes": 121 } }
        """), zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(settings, Settings(), "each invalid setting stands alone, at its default")
        XCTAssertEqual(report.brokenSettings, [.timeZone, .maxPending, .quietHours, .deliver, .laundry, .personalized])
        XCTAssertEqual(messages(report), [
            "settings.json: timeZone: \"Mars/Olympus\" is not a known time zone (expected an IANA name such as \"Europe/Berlin\")",
            "settings.json: maxPending: 0 is out of range (expected a whole number from 1 to 10000)",
            "settings.json: quietHours.end: \"7:00\" is not a time (HH:MM)",
            "settings.json: deliver.command: expected a non-empty array of strings (program and arguments), found a string",
            "settings.json: laundry.warnBeforeMinutes: 121 is out of range (expected a whole number from 0 to 120)",
            "settings.json: personalized.firstName: is required when personalized.enabled is true (the name the message greets)",
        ])
    }

    func testUnknownKeysAreWarningsNotErrors() {
        let (settings, report) = UserFileDecoder.settings(data(#"{ "colour": "blue", "laundry": { "speed": 2 } }"#),
                                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertNotNil(settings)
        XCTAssertEqual(report.warnings, ["settings.json: colour: unknown key (ignored)",
                                         "settings.json: laundry.speed: unknown key (ignored)"])
    }

    func testPetsDecodeWithDefaults() {
        let (pets, report) = UserFileDecoder.pets(data("""
        { "pets": [ { "id": "snowy", "name": "Snowy", "lastCompletedAt": "2026-11-14T19:00:00+01:00",
                      "cycle": { "id": "c-1042", "stage": "wash", "startedAt": "2026-11-21T07:30:00Z" } },
                    { "id": "luna", "cycle": null } ] }
        """))
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(pets, [
            Pet(id: "snowy", name: "Snowy", washMinutes: 45, dryMinutes: 60,
                lastCompletedAt: Fixtures.instant("2026-11-14T18:00:00Z"),
                cycle: LaundryCycle(id: "c-1042", stage: .wash, startedAt: Fixtures.instant("2026-11-21T07:30:00Z"))),
            Pet(id: "luna", name: "luna"),
        ])
    }

    func testCycleWithoutIdIsNamedByItsStart() {
        let (pets, _) = UserFileDecoder.pets(data(#"{"pets":[{"id":"a","cycle":{"stage":"dry","startedAt":"2026-11-21T07:30:00.5Z"}}]}"#))
        XCTAssertEqual(pets?.first?.cycle?.id, "2026-11-21T07:30:00.500Z")
    }

    func testPetValueErrors() {
        let (pets, report) = UserFileDecoder.pets(data("""
        { "pets": [ { "id": "snowy", "washMinutes": 0, "dryMinutes": 1.5,
                      "cycle": { "stage": "spin", "startedAt": "2026-11-21 25:00" } },
                    { "id": "snowy", "lastCompletedAt": "1999-12-31T23:59:59Z" },
                    { "name": "no id" }, 7 ] }
        """))
        XCTAssertEqual(pets, [])
        XCTAssertEqual(messages(report), [
            "laundry.json: pets[0].washMinutes: 0 is out of range (expected a whole number from 1 to 1440)",
            "laundry.json: pets[0].dryMinutes: 1.5 is out of range (expected a whole number from 1 to 1440)",
            "laundry.json: pets[0].cycle.stage: \"spin\" is not a stage (expected \"wash\" or \"dry\")",
            "laundry.json: pets[0].cycle.startedAt: \"2026-11-21 25:00\" is not an RFC 3339 instant (like \"2026-11-21T08:00:00Z\")",
            "laundry.json: pets[0].id: duplicate id \"snowy\" (also used at pets[1].id)",
            "laundry.json: pets[1].lastCompletedAt: \"1999-12-31T23:59:59Z\" is outside the years 2000 to 2200",
            "laundry.json: pets[1].id: duplicate id \"snowy\" (also used at pets[0].id)",
            "laundry.json: pets[2]: missing required key \"id\"",
            "laundry.json: pets[3]: expected an object, found a number",
        ])
    }

    func testAlarmsDecodeWithDefaults() {
        let (alarms, report) = UserFileDecoder.alarms(data("""
        {"alarms":[{"id":"fajr","title":"Morning Prayer","time":"05:30"},
                   {"id":"jumua","title":"Friday Prayer","time":"13:00","durationMinutes":45,"enabled":false,"weekdays":["fri"]}]}
        """))
        XCTAssertEqual(report.problems, [])
        XCTAssertEqual(alarms, [
            Alarm(id: "fajr", title: "Morning Prayer", time: Fixtures.time("05:30")),
            Alarm(id: "jumua", title: "Friday Prayer", time: Fixtures.time("13:00"), durationMinutes: 45,
                  enabled: false, weekdays: [.fri]),
        ])
    }

    func testAlarmValueErrorsUseZeroBasedKeyPaths() {
        let (alarms, report) = UserFileDecoder.alarms(data("""
        {"alarms":[{"id":"fajr","title":"Morning Prayer","time":"05:30"},
                   {"id":"dhuhr","title":"Noon","time":"25:00","weekdays":[]},
                   {"id":"asr","title":"","time":"15:00","weekdays":["monday"],"durationMinutes":"15"}]}
        """))
        XCTAssertEqual(alarms?.map(\.id), ["fajr"], "the valid alarm stands; the broken ones are left out")
        XCTAssertEqual(messages(report), [
            "alarms.json: alarms[1].time: \"25:00\" is not a time (HH:MM)",
            "alarms.json: alarms[1].weekdays: must list at least one weekday (mon, tue, wed, thu, fri, sat, sun)",
            "alarms.json: alarms[2].title: must not be empty (it becomes \"<title> Time\")",
            "alarms.json: alarms[2].durationMinutes: expected a whole number from 1 to 1440, found a string",
            "alarms.json: alarms[2].weekdays[0]: \"monday\" is not a weekday (expected one of mon, tue, wed, thu, fri, sat, sun)",
        ])
    }

    func testSyntaxErrorsCarryLineAndColumn() {
        let (pets, report) = UserFileDecoder.pets(data("{\n  \"pets\": [\n    { \"id\": \"snowy\",, }\n  ]\n}\n"))
        XCTAssertNil(pets)
        XCTAssertEqual(report.problems.count, 1)
        XCTAssertEqual(report.problems.first?.place, .position(line: 3, column: 21))
        XCTAssertTrue(report.problems.first?.description.hasPrefix("laundry.json:3:21: ") ?? false)
    }

    func testWrongTopLevelAndUnsupportedVersion() {
        XCTAssertEqual(messages(UserFileDecoder.alarms(data("[]")).1),
                       ["alarms.json: expected an object, found an array"])
        XCTAssertEqual(messages(UserFileDecoder.alarms(data(#"{"version": 2}"#)).1),
                       ["alarms.json: version: 2 is not a supported version (expected 1)"])
        XCTAssertEqual(messages(UserFileDecoder.alarms(data(#"{"alarms": {}}"#)).1),
                       ["alarms.json: alarms: expected an array, found an object"])
    }

    /// `"version": null` means no version, as `null` does for every optional key (docs/files.md): the file is read,
    /// not refused whole for its last good version.
    func testANullVersionIsNoVersion() {
        let (settings, report) = UserFileDecoder.settings(data(#"{"version": null, "maxPending": 10}"#),
                                                          zoneNamed: Fixtures.zoneNamed)
        XCTAssertEqual(messages(report), [])
        XCTAssertEqual(settings?.maxPending, 10)
        XCTAssertEqual(UserFileDecoder.alarms(data(#"{"version": null, "alarms": []}"#)).0, [])
    }

    func testIdsRejectSpacesAndSlashes() {
        let (_, report) = UserFileDecoder.alarms(data(#"{"alarms":[{"id":"a/b c","title":"T","time":"05:00"}]}"#))
        XCTAssertEqual(messages(report), [
            "alarms.json: alarms[0].id: \"a/b c\" is not a valid id (use 1 to 100 letters, digits, '.', '_' or '-')",
        ])
    }

    func testIdsHoldAtMostOneHundredCharactersInAnyScript() {
        func accepts(_ id: String) -> Bool {
            UserFileDecoder.alarms(data("{\"alarms\":[{\"id\":\"\(id)\",\"title\":\"T\",\"time\":\"05:00\"}]}")).1.isValid
        }
        XCTAssertTrue(accepts(String(repeating: "a", count: 100)))
        XCTAssertFalse(accepts(String(repeating: "a", count: 101)))
        XCTAssertTrue(accepts(String(repeating: "é", count: 100)))   // 200 bytes, 100 characters
        XCTAssertFalse(accepts(String(repeating: "é", count: 101)))
        XCTAssertTrue(accepts("snowy-é_2.b"))
        XCTAssertFalse(accepts("snowy-é 2"))
        XCTAssertFalse(accepts(""))
    }

    func testDuplicateIdsAreFoundByTheirUnescapedTextAndEveryUseIsLeftOut() {
        let (alarms, report) = UserFileDecoder.alarms(data(#"""
        {"alarms":[{"id":"fajr","title":"A","time":"05:30"}, {"id":7,"title":"B","time":"05:30"},
                   {"id":"f\u0061jr","title":"C","time":"05:30"}, {"id":"isha","title":"D","time":"20:00"},
                   {"id":"fajr","title":"E","time":"05:30"}, "x", {"id":"isha","title":"F","time":"20:00"}]}
        """#))
        XCTAssertEqual(alarms, [])
        XCTAssertEqual(messages(report), [
            "alarms.json: alarms[0].id: duplicate id \"fajr\" (also used at alarms[2].id, alarms[4].id)",
            "alarms.json: alarms[1].id: expected a string, found a number",
            "alarms.json: alarms[2].id: duplicate id \"fajr\" (also used at alarms[0].id, alarms[4].id)",
            "alarms.json: alarms[3].id: duplicate id \"isha\" (also used at alarms[6].id)",
            "alarms.json: alarms[4].id: duplicate id \"fajr\" (also used at alarms[0].id, alarms[2].id)",
            "alarms.json: alarms[5]: expected an object, found a string",
            "alarms.json: alarms[6].id: duplicate id \"isha\" (also used at alarms[3].id)",
        ])
        XCTAssertEqual(report.brokenEntries.map(\.index), Array(0...6))
        XCTAssertTrue(report.isUsable)
    }

    func testIdsWrittenWithEscapesAreCheckedByTheirText() {
        let (alarms, report) = UserFileDecoder.alarms(data(#"""
        {"alarms":[{"id":"a\u002Db","title":"T","time":"05:00"}, {"id":"a\u0020b","title":"T","time":"05:00"}]}
        """#))
        XCTAssertEqual(alarms?.map(\.id), ["a-b"])
        XCTAssertEqual(messages(report), [
            "alarms.json: alarms[1].id: \"a b\" is not a valid id (use 1 to 100 letters, digits, '.', '_' or '-')",
        ])
    }

    func testVisibleTextAgreesWithUnicodeWhiteSpaceForEveryASCIIScalar() {
        for value in UInt32(0)..<0x80 {
            let scalar = Unicode.Scalar(value)!
            let text = String(Character(scalar))
            XCTAssertEqual(ObjectReader.hasVisibleText(text), !scalar.properties.isWhitespace, "U+\(value)")
            XCTAssertEqual(ObjectReader.hasVisibleText(" \t" + text), !scalar.properties.isWhitespace, "U+\(value)")
        }
        XCTAssertFalse(ObjectReader.hasVisibleText(" \u{A0}\u{2003}\n"))
        XCTAssertTrue(ObjectReader.hasVisibleText(" \u{A0}é"))
        XCTAssertFalse(ObjectReader.hasVisibleText(""))
    }

    func testOffsetZoneNamesAreRejectedButIANAEtcNamesAccepted() {
        for name in ["UTC+5", "GMT-3", "UTC+05:30", "utc-1"] {
            let (_, report) = UserFileDecoder.settings(data("{\"timeZone\": \"\(name)\"}"),
                                                       zoneNamed: Fixtures.zoneNamed)
            XCTAssertEqual(messages(report), ["settings.json: timeZone: \"\(name)\" is not a known time zone "
                + "(expected an IANA name such as \"Europe/Berlin\")"], name)
        }
        for name in ["Etc/GMT+5", "UTC", "GMT", "US/Eastern", "Asia/Kolkata"] {
            XCTAssertEqual(UserFileDecoder.settings(data("{\"timeZone\": \"\(name)\"}"),
                                                    zoneNamed: Fixtures.zoneNamed).0?.timeZone, name, name)
        }
    }
}
