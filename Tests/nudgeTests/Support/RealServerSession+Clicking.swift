import Foundation
import XCTest

/// Where a person clicks on each server: the pointer on Xvfb (xdotool), GNOME's RemoteDesktop pointer, and
/// `makoctl invoke` (mako's own binding for a click).
extension RealServerSession {
    // MARK: - X11 servers (xfce4-notifyd, notification-daemon)

    /// The banners on screen (x, y, width, height): the visible windows smaller than the screen, as Xvfb has no
    /// window manager and no other program draws; xfce4-notifyd also keeps a 10×10 window of its own.
    func banners() -> [(x: Int, y: Int, width: Int, height: Int)] {
        let windows = run("xdotool", ["search", "--onlyvisible", "--name", ""]).stdout.split(separator: "\n")
        return windows.compactMap { window in
            var values: [String: Int] = [:]
            for line in run("xdotool", ["getwindowgeometry", "--shell", String(window)]).stdout.split(separator: "\n") {
                let pair = line.split(separator: "=")
                if pair.count == 2 { values[String(pair[0])] = Int(pair[1]) }
            }
            guard let x = values["X"], let y = values["Y"], let width = values["WIDTH"], let height = values["HEIGHT"],
                  height > 50, width < 1000 else { return nil }
            return (x, y, width, height)
        }
    }

    /// Clicks the last button of the one banner on screen: both X11 servers put the buttons in a row at the
    /// bottom, right-aligned (notification-daemon leaves a wider margin). On GNOME Shell, through its
    /// RemoteDesktop pointer, once the banner shows.
    ///
    /// A banner notification-daemon has only just mapped can let the first click pass; so the pointer clicks
    /// again while the banner is there and no ActionInvoked has come. A click that did register has the
    /// banner closed, so none lands twice unless the server says it twice, which the tests count.
    func clickLastButton() throws {
        if kind == .gnome {
            try waitForGnomeBanner()
            _ = try XCTUnwrap(try GnomeShellPointer.run("click", on: desktop), "no banner with buttons on GNOME's screen")
            return
        }
        let (right, bottom) = kind == .notificationDaemon ? (87, 39) : (34, 15)
        let invokedBefore = monitorRecords("ActionInvoked").count
        try waitUntil("a click on the banner's last button to reach the server", timeout: 20) {
            guard let banner = banners().first else { return monitorRecords("ActionInvoked").count > invokedBefore }
            click(x: banner.x + banner.width - right, y: banner.y + banner.height - bottom)
            return (try? Waiting.until("ActionInvoked", timeout: 1) {
                self.monitorRecords("ActionInvoked").count > invokedBefore
            }) != nil
        }
    }

    /// Clicks the banner beside its buttons: xfce4-notifyd invokes the `default` action. (A click on the summary
    /// at the top dismisses the banner instead, without an action.) On GNOME Shell, the body above the buttons.
    func clickBody() throws {
        if kind == .gnome {
            try waitForGnomeBanner()
            _ = try XCTUnwrap(try GnomeShellPointer.run("body", on: desktop), "no banner with buttons on GNOME's screen")
            return
        }
        let banner = try XCTUnwrap(banners().first, "no banner on screen")
        click(x: banner.x + 50, y: banner.y + banner.height - 15)
    }

    private func click(x: Int, y: Int) {
        run("xdotool", ["mousemove", String(x), String(y), "click", "1"])
    }

    // MARK: - GNOME Shell

    /// Waits until a banner with buttons is on GNOME's screen. GNOME queues a banner behind the one it shows and
    /// lets a shown one time out only once the person is active (its "Logged in as a privileged user" banner
    /// for root stays while nobody moves): a pointer motion of one pixel is that activity.
    func waitForGnomeBanner(timeout: TimeInterval = 60) throws {
        try waitUntil("a banner with buttons on GNOME's screen", timeout: timeout) {
            if (try? GnomeShellPointer.run("find", on: self.desktop)) != nil { return true }
            _ = try? GnomeShellPointer.run("nudge", on: self.desktop)
            return false
        }
    }

    /// Whether GNOME's screen shows a banner with buttons now.
    func gnomeShowsABannerWithButtons() throws -> Bool {
        try GnomeShellPointer.run("find", on: desktop) != nil
    }

    // MARK: - mako

    /// The notifications mako shows: id and summary.
    func makoNotifications() -> [(id: Int, summary: String)] {
        let list = run("makoctl", ["list"]).stdout
        guard let json = try? JSONSerialization.jsonObject(with: Data(list.utf8)) as? [String: Any],
              let outer = json["data"] as? [[[String: Any]]], let shown = outer.first else { return [] }
        return shown.compactMap { entry in
            guard let id = (entry["id"] as? [String: Any])?["data"] as? Int,
                  let summary = (entry["summary"] as? [String: Any])?["data"] as? String else { return nil }
            return (id, summary)
        }
    }

    /// Invokes `action` of notification `id` as mako's click binding does (`makoctl invoke`); no action is a
    /// click on the body (mako's `default`).
    func makoInvoke(id: Int, _ action: String? = nil) throws {
        let answer = run("makoctl", ["invoke", "-n", String(id)] + (action.map { [$0] } ?? []))
        XCTAssertEqual(answer.status, 0, "makoctl invoke -n \(id) \(action ?? "")")
    }

    /// Writes mako's configuration file (`$XDG_CONFIG_HOME/mako/config`, readable by the owner) and has mako
    /// read it again.
    func configureMako(_ text: String) throws {
        let folder = desktop.root.appendingPathComponent("config/mako")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("config")
        try text.write(to: file, atomically: true, encoding: .utf8)
        chmod(folder.path, 0o755)
        chmod(file.path, 0o644)
        let reload = run("makoctl", ["reload"])
        XCTAssertEqual(reload.status, 0, "makoctl reload")
    }

    /// How many pixels of the screen sway shows have `color` (RGB), from a screenshot by grim: what mako drew.
    func pixels(of color: (UInt8, UInt8, UInt8)) throws -> Int {
        let shot = desktop.root.appendingPathComponent("shot-\(UUID().uuidString).ppm")
        defer { try? FileManager.default.removeItem(at: shot) }
        // grim runs as the owner, who may write only their own folders.
        let target = desktop.root.appendingPathComponent("cache").appendingPathComponent(shot.lastPathComponent)
        defer { try? FileManager.default.removeItem(at: target) }
        let taken = desktop.run("grim", ["-t", "ppm", target.path], asOwner: true)
        XCTAssertEqual(taken.status, 0, "grim")
        let data = [UInt8](try Data(contentsOf: target))
        // P6: magic, width, height, maximum, each followed by whitespace, then RGB bytes.
        var fields: [String] = [], index = 0
        while fields.count < 4, index < data.count {
            while index < data.count, data[index] == 0x20 || data[index] == 0x0A { index += 1 }
            var field = ""
            while index < data.count, data[index] != 0x20, data[index] != 0x0A {
                field.append(Character(UnicodeScalar(data[index])))
                index += 1
            }
            fields.append(field)
        }
        index += 1
        XCTAssertEqual(fields.first, "P6", "a PPM from grim")
        var count = 0
        while index + 2 < data.count {
            if data[index] == color.0, data[index + 1] == color.1, data[index + 2] == color.2 { count += 1 }
            index += 3
        }
        return count
    }
}
