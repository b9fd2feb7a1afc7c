import Foundation

/// A person's pointer on a headless GNOME Shell: GNOME's own `org.gnome.Mutter.RemoteDesktop` moves it and
/// presses its button, and `org.gnome.Shell.Screenshot` shows where the banner's buttons are. A few lines of
/// Debian's Python (python3-dbus, python3-gi with GdkPixbuf) on the session's bus.
///
/// GNOME 43 draws a banner's body in gray 63 and its buttons in a row of a lighter gray (82, hovered 90 or so)
/// along its bottom edge; the last button reaches the banner's right edge. The pointer is first pushed into the
/// top-left corner (relative motion is exact for a virtual pointer, and the corner is a known place), then moved
/// down and only then right: GNOME's hot-corner barrier holds a pointer that leaves the corner diagonally.
enum GnomeShellPointer {
    static let python = DebianPython.path
    static let script = #"""
        import json, sys
        import dbus, gi
        gi.require_version("GdkPixbuf", "2.0")
        from gi.repository import GdkPixbuf

        bus = dbus.SessionBus()
        # GNOME Shell takes screenshots only for the callers it knows; org.gnome.Screenshot is one of them.
        bus.request_name("org.gnome.Screenshot")
        shell = bus.get_object("org.gnome.Shell.Screenshot", "/org/gnome/Shell/Screenshot")
        screenshot = dbus.Interface(shell, "org.gnome.Shell.Screenshot")

        def button_row(path):
            """Where to click on the banner with buttons on screen, or None when there is none: its last button
            (x, y) and its body above the buttons (x, y)."""
            screenshot.Screenshot(False, False, path)
            image = GdkPixbuf.Pixbuf.new_from_file(path)
            pixels, stride, channels = image.get_pixels(), image.get_rowstride(), image.get_n_channels()
            width, height = image.get_width(), image.get_height()
            def gray(x, y):
                r, g, b = pixels[y * stride + x * channels:y * stride + x * channels + 3]
                return r if r == g == b else -1
            def button(value): return 74 <= value <= 110
            def body(value): return 58 <= value <= 68
            for x in (width // 2 - 40, width // 2 + 40):
                for y in range(1, height // 2):
                    if body(gray(x, y - 1)) and button(gray(x, y)):
                        bottom = y
                        while bottom + 1 < height and button(gray(x, bottom + 1)): bottom += 1
                        middle = (y + bottom) // 2
                        right = max(x for x in range(width) if button(gray(x, middle)))
                        if bottom - y >= 20: return (right - 30, middle, x, y - 25)
            return None

        def pointer():
            desktop = bus.get_object("org.gnome.Mutter.RemoteDesktop", "/org/gnome/Mutter/RemoteDesktop")
            path = dbus.Interface(desktop, "org.gnome.Mutter.RemoteDesktop").CreateSession()
            session = dbus.Interface(bus.get_object("org.gnome.Mutter.RemoteDesktop", path),
                                     "org.gnome.Mutter.RemoteDesktop.Session")
            session.Start()
            return session

        command, path = sys.argv[1], sys.argv[2]
        target = button_row(path)
        if command == "find":
            print(json.dumps(target))
        elif command == "nudge":
            session = pointer()
            session.NotifyPointerMotionRelative(1.0, 1.0)
            session.Stop()
        elif command in ("click", "body") and target:
            x, y = target[0:2] if command == "click" else target[2:4]
            session = pointer()
            session.NotifyPointerMotionRelative(-10000.0, -10000.0)
            session.NotifyPointerMotionRelative(0.0, float(y))
            session.NotifyPointerMotionRelative(float(x), 0.0)
            session.NotifyPointerButton(0x110, True)
            session.NotifyPointerButton(0x110, False)
            session.Stop()
            print(json.dumps([x, y]))
        else:
            print(json.dumps(None))
        """#

    static var isAvailable: Bool {
        DebianPython.runs("import dbus, gi; gi.require_version('GdkPixbuf', '2.0')")
    }

    /// Runs the script with `command` (`find`, `nudge`, `click` the last button, or `body`) on the desktop's bus;
    /// the place it found or clicked, nil when no banner with buttons is on screen.
    static func run(_ command: String, on desktop: PrivateDesktop) throws -> (x: Int, y: Int)? {
        let script = desktop.root.appendingPathComponent("pointer.py")
        if !FileManager.default.fileExists(atPath: script.path) {
            try Self.script.write(to: script, atomically: true, encoding: .utf8)
        }
        let shot = desktop.root.appendingPathComponent("screen.png").path
        let answer = desktop.run(python, [script.path, command, shot])
        let numbers = answer.stdout.filter { "0123456789,".contains($0) }.split(separator: ",").compactMap { Int($0) }
        return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
    }
}
