import FoundationEssentials

extension CalendarSettings {
    /// "user:password" for the calendar (docs/calendar.md, "The password"): the password is the first line of what
    /// `passwordCommand` `printed` (when it is set), else the `password` of `netrc` (the text of `~/.netrc`) for the
    /// host; the user is `user`, else `netrc`'s `login`. nil when there is no password or no user: the request goes
    /// without, and a server that needs them says 401. A password command that printed no first line is a failure.
    public func credentials(netrc: String?, printed: String?) -> Result<String?, CalendarFailure> {
        let entry = netrc.flatMap { Netrc($0).entry(for: host) }
        var password = entry?.password
        if let command = passwordCommand {
            // "\r\n" is one Character in Swift: a separator of its own, not "\n" after "\r".
            password = printed?.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first
                .map(String.init) ?? ""
            guard password?.isEmpty == false else {
                return .failure(.transport("deliver.calendar.passwordCommand (\(command[0])) printed no password"))
            }
        }
        guard let password, let user = user ?? entry?.login else { return .success(nil) }
        return .success(user + ":" + password)
    }
}
