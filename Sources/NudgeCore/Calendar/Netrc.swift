import FoundationEssentials

/// `~/.netrc`, as ftp(1) and curl(1) read it: tokens separated by white space; `machine NAME` (or `default`)
/// starts an entry whose `login` and `password` follow; `macdef` defines a macro up to the next empty line.
struct Netrc: Sendable {
    /// One entry's login and password, either possibly missing.
    struct Entry: Equatable, Sendable {
        var login: String?
        var password: String?
    }

    private var machines: [(name: String, entry: Entry)] = []
    private var fallback: Entry?

    init(_ text: String) {
        var current: (name: String?, entry: Entry)?
        func finish() {
            guard let done = current else { return }
            if let name = done.name {
                machines.append((name.lowercased(), done.entry))
            } else if fallback == nil {
                fallback = done.entry
            }
            current = nil
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
        var tokens: [Substring] = []
        while !lines.isEmpty || !tokens.isEmpty {
            if tokens.isEmpty {
                tokens = lines.removeFirst().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }).reversed()
                continue
            }
            let token = tokens.removeLast()
            switch token {
            case "machine":
                finish()
                if let name = tokens.popLast() { current = (String(name), Entry()) }
            case "default":
                finish()
                current = (nil, Entry())
            case "login", "password", "account":
                let value = tokens.popLast().map(String.init)
                if token == "login" { current?.entry.login = value }
                if token == "password" { current?.entry.password = value }
            case "macdef":
                finish()
                tokens = []
                while let line = lines.first, !line.allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) {
                    lines.removeFirst()
                }
            default:
                break
            }
        }
        finish()
    }

    /// The first entry of `host` (compared without case), else the `default` entry.
    func entry(for host: String) -> Entry? {
        machines.first { $0.name == host.lowercased() }?.entry ?? fallback
    }
}
