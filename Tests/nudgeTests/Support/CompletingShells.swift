import Foundation
import XCTest

/// The real bash, zsh and fish, each with the script of `nudge completions` loaded, asked what they offer at the
/// end of a line, as a person pressing Tab there would be. `nudge` is on their PATH, as the scripts need it to ask
/// `nudge complete-values` for the ids of the data directory. A shell that is missing skips the test, or fails it
/// under CI (`ExternalTool.require`).
struct CompletingShells {
    let scratch: TemporaryDataDirectory
    /// `NudgeProcess.environment` (no NUDGE_DATA, a default data directory that points nowhere) with the test's
    /// own variables, `nudge` first on PATH and HOME in the scratch directory.
    let environment: [String: String]

    init(scratch: TemporaryDataDirectory, environment extra: [String: String] = [:]) throws {
        self.scratch = scratch
        let bin = scratch.fileURL("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let link = bin.appendingPathComponent("nudge")
        if !FileManager.default.fileExists(atPath: link.path) {
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: try NudgeProcess.executableURL())
        }
        var environment = NudgeProcess.environment(extra)
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        environment["HOME"] = scratch.path
        self.environment = environment
    }

    /// What bash offers (COMPREPLY) for each line. The words are split as bash splits them for completion: at
    /// blanks, and before and after each run of the COMP_WORDBREAKS characters `:` and `=` (as a real bash 5.2
    /// shows them: `a::b:c` is `a`, `::`, `b`, `:`, `c`); COMP_LINE keeps the line as typed.
    func bash(_ lines: [String]) throws -> [[String]] {
        let bash = try ExternalTool.require("bash")
        var driver = #"""
            source <(nudge completions bash) || exit 3
            function=$(complete -p nudge | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
            [ -n "$function" ] || exit 4
            offer() {
                local line=$1 token
                local -a tokens words=()
                read -ra tokens <<< "$line"
                for token in "${tokens[@]}"; do
                    while [[ $token =~ ^([:=]+|[^:=]+)(.*)$ ]]; do
                        words+=("${BASH_REMATCH[1]}")
                        token=${BASH_REMATCH[2]}
                    done
                done
                [[ $line == *' ' ]] && words+=("")
                COMP_WORDS=("${words[@]}") COMP_CWORD=$(( ${#words[@]} - 1 )) COMP_LINE=$line COMP_POINT=${#line}
                COMPREPLY=()
                "$function" nudge "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
                printf '%s\n' "${COMPREPLY[*]}"
            }

            """#
        for line in lines {
            driver += "offer \(Self.singleQuoted(line))\n"
        }
        let result = try ExternalTool.run(bash, ["--norc", "--noprofile", "-c", driver],
                                          exactEnvironment: environment, workingDirectory: scratch.url)
        return try offers(result, lines: lines) { $0.split(separator: " ").map(String.init) }
    }

    /// What zsh offers for each line: an interactive zsh on a pseudo-terminal of zsh's own (zpty), with
    /// compinit and the script, gets the line and a Tab. Its `compadd` writes the words that match what is
    /// typed to a file instead of the screen, and each completion ends that file with a line `.`.
    func zsh(_ lines: [String]) throws -> [[String]] {
        let zsh = try ExternalTool.require("zsh")
        let offered = scratch.fileURL("zsh-offered").path
        let setup = try scratch.writeFile("zsh-setup.zsh", #"""
            PROMPT= RPROMPT=
            bindkey -e
            autoload -U compinit && compinit -u -D
            source <(nudge completions zsh) || print -r -- failed >> $NUDGE_OFFERED
            compadd() {
              if [[ -n ${(M)@:#-[OAD]*} ]]; then builtin compadd "$@"; return; fi
              local -a matching
              builtin compadd -O matching "$@"
              (( $#matching )) && print -rl -- $matching >> $NUDGE_OFFERED
              return 0
            }
            functions[_nudge_loaded]=$functions[_nudge]
            _nudge() { _nudge_loaded "$@"; print -r -- . >> $NUDGE_OFFERED }
            bindkey '^I' complete-word
            print -r -- ready >> $NUDGE_OFFERED

            """#)
        let driver = #"""
            zmodload zsh/zpty zsh/zselect || exit 3
            # Waits until the file's last line is $1, reading what the shell shows so that it never blocks. (An
            # array: a split into one line would be a string, and [-1] its last letter.)
            wait_for() {
              local i chunk
              local -a written
              for (( i = 0; i < 400; i++ )); do
                while zpty -rt completing chunk 2>/dev/null; do :; done
                written=(${(f)"$(<$NUDGE_OFFERED)"})
                [[ $written[-1] == $1 ]] && return 0
                zselect -t 5
              done
              return 1
            }
            : > $NUDGE_OFFERED
            zpty completing zsh -f -i
            zpty -w completing "source ${(q)1}"
            wait_for ready || exit 5
            shift
            for line in "$@"; do
              : > $NUDGE_OFFERED
              zpty -w -n completing "$line"$'\t'
              wait_for . || exit 6
              offered=(${(f)"$(<$NUDGE_OFFERED)"})
              print -r -- ${(j: :)offered[1,-2]}
              zpty -w -n completing $'\C-u'
            done
            zpty -d completing

            """#
        var environment = environment
        environment["NUDGE_OFFERED"] = offered
        let result = try ExternalTool.run(zsh, ["-f", "-c", driver, "zsh", setup.path] + lines,
                                          exactEnvironment: environment, workingDirectory: scratch.url)
        return try offers(result, lines: lines) { $0.split(separator: " ").map(String.init) }
    }

    /// What fish offers for each line (`complete -C`), without the descriptions.
    func fish(_ lines: [String]) throws -> [[String]] {
        let fish = try ExternalTool.require("fish")
        var command = "nudge completions fish | source; or exit 3\n"
        for line in lines {
            command += "echo (complete -C \(Self.singleQuoted(line)) | string split -f 1 \\t)\n"
        }
        let result = try ExternalTool.run(fish, ["--no-config", "-c", command], exactEnvironment: environment,
                                          workingDirectory: scratch.url)
        return try offers(result, lines: lines) { $0.split(separator: " ").map(String.init) }
    }

    /// One line of output per line asked about, split into words; the shell must have said nothing on stderr.
    private func offers(_ result: ExternalTool.Result, lines: [String],
                        _ words: (String) -> [String]) throws -> [[String]] {
        XCTAssertEqual(result.status, 0, result.summary)
        XCTAssertEqual(result.stderr, "", result.summary)
        var output = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if output.last == "" { output.removeLast() }
        guard output.count == lines.count else {
            XCTFail("expected \(lines.count) lines of offers\n" + result.summary)
            return Array(repeating: [], count: lines.count)
        }
        return output.map(words)
    }

    /// `text` as one word for bash, zsh and fish: single quotes (the lines asked about hold none).
    private static func singleQuoted(_ text: String) -> String {
        precondition(!text.contains("'"), "a line to complete holds a single quote: \(text)")
        return "'" + text + "'"
    }
}
