import FoundationEssentials
import Glibc

/// Where results (stdout) and diagnostics (stderr) go. Results never share a stream with errors, so
/// `nudge run --json | jq` always sees only delivery objects.
struct Console {
    func out(_ text: String) {
        fputs(text + "\n", stdout)
    }

    func error(_ text: String) {
        fflush(stdout)
        fputs(text + "\n", stderr)
    }

    func flush() {
        fflush(stdout)
        fflush(stderr)
    }
}
