import XCTest
@testable import NudgeCore

/// Where nudge puts things by default and the user units `nudge init --systemd` writes (docs/systemd.md).
final class SetupTests: XCTestCase {
    func testDataDirectoryFollowsXDGDataHomeElseHome() {
        XCTAssertEqual(try UserDirectories.dataDirectory(environment: [:], home: "/home/amira").get(),
                       "/home/amira/.local/share/nudge")
        XCTAssertEqual(try UserDirectories.dataDirectory(environment: ["XDG_DATA_HOME": "/srv/data/"],
                                                         home: "/home/amira").get(), "/srv/data/nudge")
    }

    func testStateDirectoryFollowsXDGStateHomeElseHomeAndIgnoresARelativeOne() {
        XCTAssertEqual(try UserDirectories.stateDirectory(environment: [:], home: "/home/amira").get(),
                       "/home/amira/.local/state/nudge")
        XCTAssertEqual(try UserDirectories.stateDirectory(environment: ["XDG_STATE_HOME": "/srv/state"],
                                                          home: "/home/amira").get(), "/srv/state/nudge")
        XCTAssertEqual(try UserDirectories.stateDirectory(environment: ["XDG_STATE_HOME": "state"],
                                                          home: "/home/amira").get(), "/home/amira/.local/state/nudge")
        XCTAssertEqual(UserDirectories.stateDirectory(environment: [:], home: nil), .failure(.init()))
    }

    func testRelativeOrEmptyXDGDataHomeIsIgnoredAsTheConventionSays() {
        for value in ["", "relative/share", "~/share"] {
            XCTAssertEqual(try UserDirectories.dataDirectory(environment: ["XDG_DATA_HOME": value],
                                                             home: "/home/amira").get(),
                           "/home/amira/.local/share/nudge", value)
        }
    }

    func testNoHomeAndNoXDGDataHomeIsAClearFailure() {
        XCTAssertEqual(UserDirectories.dataDirectory(environment: [:], home: nil), .failure(.init()))
        XCTAssertEqual(UserDirectories.dataDirectory(environment: [:], home: "relative"), .failure(.init()))
        XCTAssertTrue(UserDirectories.NoHome().description.contains("--data DIR"))
    }

    func testUserUnitDirectoryFollowsXDGConfigHome() {
        XCTAssertEqual(try UserDirectories.userUnitDirectory(environment: [:], home: "/home/amira").get(),
                       "/home/amira/.config/systemd/user")
        XCTAssertEqual(try UserDirectories.userUnitDirectory(environment: ["XDG_CONFIG_HOME": "/cfg"],
                                                             home: "/home/amira").get(), "/cfg/systemd/user")
    }

    func testServiceRunsTheGivenBinaryOnTheGivenDirectoryArmsTheNextWakeAndKeepsTheWaiters() {
        let service = SystemdUnits.service(binary: "/home/amira/.local/bin/nudge",
                                           dataDirectory: "/home/amira/.local/share/nudge")
        let lines = service.split(separator: "\n").map(String.init)
        XCTAssertTrue(lines.contains("Type=oneshot"))
        XCTAssertTrue(lines.contains("KillMode=process"))
        XCTAssertTrue(lines.contains("LogLevelMax=notice"), "no Starting/Finished line per run in the journal")
        XCTAssertTrue(lines.contains("ExecStart=/home/amira/.local/bin/nudge run --quiet --systemd --wait 30 "
            + "--data /home/amira/.local/share/nudge"), service)
        XCTAssertFalse(service.contains("--linger"), "no run stays up to wait for a due second")
    }

    func testTheUnitsAreTheServicesThePathAndTheHourlyTimer() {
        let files = SystemdUnits.files(binary: "/usr/bin/nudge", dataDirectory: "/d", watched: .eachFile)
        XCTAssertEqual(files.map(\.name), ["nudge.service", "nudge-alarm.service", "nudge.path", "nudge-hourly.timer"])
        XCTAssertEqual(files[0].content.replacingOccurrences(of: "nudge notification planner\n", with: ""),
                       files[1].content.replacingOccurrences(
                           of: "nudge notification planner, woken for a critical alarm\n", with: ""),
                       "the alarm's service is the same run")
        XCTAssertFalse(files.contains { $0.name == SystemdWake.timerName || $0.name == SystemdWake.alarmTimerName },
                       "the wakes are transient: a unit file of that name would stop them being armed")
    }

    /// nudge's own files beside the person's: each user file is watched, never the directory those runs write to.
    func testThePathUnitWatchesEveryUserFileWhereNudgesOwnFilesShareTheDirectory() {
        let lines = SystemdUnits.path(dataDirectory: "/home/a/100%/nudge", watched: .eachFile)
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("PathChanged=") },
                       UserFile.allCases.map { "PathChanged=/home/a/100%%/nudge/\($0.fileName)" })
        XCTAssertTrue(lines.contains("Unit=nudge.service"))
        XCTAssertTrue(lines.contains("WantedBy=default.target"))
    }

    /// Only the person's files in the directory: the directory is watched (every way an editor saves, a file
    /// created or removed; docs/systemd.md), and the directory of each link target once.
    func testThePathUnitWatchesTheDirectoryAndTheLinkTargetsDirectories() {
        let lines = SystemdUnits.path(dataDirectory: "/d/nudge",
                                      watched: .directory(linkedDirectories: ["/dots", "/d/nudge", "/dots"]))
            .split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("PathChanged=") }, ["PathChanged=/d/nudge", "PathChanged=/dots"])
        XCTAssertTrue(lines.contains("Unit=nudge.service"))
    }

    func testTheHourlyTimerIsInUTCToTheSecondAndRunsAtLoginAndOnClockAndZoneChanges() {
        let lines = SystemdUnits.hourlyTimer.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("OnCalendar=") }, ["OnCalendar=*-*-* *:00:00 UTC"])
        for line in ["OnActiveSec=0", "OnClockChange=yes", "OnTimezoneChange=yes", "AccuracySec=1s",
                     "Persistent=true", "Unit=nudge.service", "WantedBy=timers.target"] {
            XCTAssertTrue(lines.contains(line), line)
        }
        XCTAssertFalse(lines.contains { $0.hasPrefix("WakeSystem") }, "where it cannot wake, such a timer never runs")
    }

    func testExecArgumentsEscapeWhatSystemdWouldReadAsSpecifiersVariablesOrSeparators() {
        XCTAssertEqual(SystemdUnits.execArgument("/usr/bin/nudge"), "/usr/bin/nudge")
        XCTAssertEqual(SystemdUnits.execArgument("/home/a b/data"), #""/home/a b/data""#)
        XCTAssertEqual(SystemdUnits.execArgument("/data/100%"), "/data/100%%")
        XCTAssertEqual(SystemdUnits.execArgument("/data/$HOME"), "/data/$$HOME")
        XCTAssertEqual(SystemdUnits.execArgument(#"/data/"q"\x"#), #""/data/\"q\"\\x""#)
        XCTAssertEqual(SystemdUnits.execArgument(";"), #"";""#)
    }

    /// A path in the home directory is written with `%h`, so that the same units serve every user; one outside
    /// it stays absolute.
    func testPathsInTheHomeDirectoryAreWrittenWithPercentH() {
        let files = Dictionary(uniqueKeysWithValues: SystemdUnits.files(
            binary: "/home/amira/.local/bin/nudge", dataDirectory: "/home/amira/My Files/nudge", watched: .eachFile,
            home: "/home/amira"))
        XCTAssertTrue(files["nudge.service"]?.contains(
            #"ExecStart=%h/.local/bin/nudge run --quiet --systemd --wait 30 --data "%h/My Files/nudge""#) ?? false,
            files["nudge.service"] ?? "")
        XCTAssertTrue(files["nudge.path"]?.contains("PathChanged=%h/My Files/nudge/settings.json") ?? false)
        let elsewhere = Dictionary(uniqueKeysWithValues: SystemdUnits.files(
            binary: "/usr/bin/nudge", dataDirectory: "/srv/nudge", watched: .eachFile, home: "/home/amira"))
        XCTAssertTrue(elsewhere["nudge.service"]?.contains("ExecStart=/usr/bin/nudge run --quiet --systemd --wait 30 "
            + "--data /srv/nudge\n") ?? false)
        XCTAssertTrue(elsewhere["nudge.path"]?.contains("PathChanged=/srv/nudge/settings.json") ?? false)
    }

    /// The units a package ships: /usr/bin/nudge on every user's default data directory.
    func testThePackagedUnitsRunUsrBinNudgeOnEachUsersDefaultDirectory() {
        let files = Dictionary(uniqueKeysWithValues: SystemdUnits.packaged)
        XCTAssertEqual(Set(files.keys), ["nudge.service", "nudge-alarm.service", "nudge.path", "nudge-hourly.timer"])
        XCTAssertTrue(files["nudge.service"]?.contains(
            "ExecStart=/usr/bin/nudge run --quiet --systemd --wait 30 --data %h/.local/share/nudge\n") ?? false)
        XCTAssertFalse(SystemdUnits.packaged.contains { $0.content.contains("/home/") })
        XCTAssertTrue(files["nudge.path"]?.contains("PathChanged=%h/.local/share/nudge\n") ?? false,
                      "the directory, which holds only the person's files")
    }

    /// Where units installed for all users are, in systemd's order for a user manager, with the XDG lists.
    func testSystemUnitDirectoriesFollowTheXDGListsAndSystemdsOwn() {
        XCTAssertEqual(UserDirectories.systemUnitDirectories(environment: [:]), [
            "/etc/xdg/systemd/user", "/etc/systemd/user", "/usr/local/share/systemd/user", "/usr/share/systemd/user",
            "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"])
        XCTAssertEqual(UserDirectories.systemUnitDirectories(environment: ["XDG_DATA_DIRS": "/opt/a:relative:/opt/b/",
                                                                           "XDG_CONFIG_DIRS": "/cfg"]), [
            "/cfg/systemd/user", "/etc/systemd/user", "/opt/a/systemd/user", "/opt/b/systemd/user",
            "/usr/local/lib/systemd/user", "/usr/lib/systemd/user"])
    }
}
