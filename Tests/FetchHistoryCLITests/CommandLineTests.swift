import Foundation
import Testing

/// The command line around the commands: options every command takes,
/// before or after its name; mistyped commands; durations and dates, and
/// what an error says is expected of them; colour; completion scripts.
@Suite("global options, durations, colour, completion and wording")
struct CommandLineTests {
    // MARK: Global options

    @Test(arguments: [
        ["-d", "DB", "list"], ["--database", "DB", "list"], ["--database=DB", "list"],
        ["--color", "never", "-d", "DB", "list"], ["list", "-d", "DB"],
    ])
    func theDatabaseOptionWorksBeforeOrAfterTheCommand(_ template: [String]) async throws {
        // Given a history at a path the environment does not name
        let sandbox = try Sandbox()
        let path = sandbox.path("elsewhere.sqlite")
        let fetched = try await sandbox.run(["fetch", "--latency", "0", "-d", path])
        #expect(fetched.status == 0, "\(fetched)")

        // When it is listed with -d before or after `list`
        let arguments = template.map { $0.replacingOccurrences(of: "DB", with: path) }
        let result = try await sandbox.run(arguments, environment: sandbox.environment(.unset))

        // Then the fetch is listed
        #expect(result.status == 0, "\(result)")
        #expect(result.lines.count == 2 && result.lines[1].contains("succeeded"), "\(result)")
    }

    @Test func globalOptionsWithoutACommandSaySoAndHelpIgnoresThem() async throws {
        let sandbox = try Sandbox()
        let alone = try await sandbox.run("-d", sandbox.database)
        let bare = try await sandbox.run("--color")
        let bareDatabase = try await sandbox.run("-d")
        let help = try await sandbox.run("--color", "never", "help", "list")
        #expect(alone.status == 64 && alone.standardError == "error: -d needs a command after it, as in: fetch-history -d \(sandbox.database) list\n", "\(alone)")
        #expect(bare.status == 64 && bare.standardError == "error: --color needs a value and a command after it, as in: fetch-history --color never list\n", "\(bare)")
        #expect(bareDatabase.status == 64 && bareDatabase.standardError == "error: -d needs a value and a command after it, as in: fetch-history -d history.sqlite list\n", "\(bareDatabase)")
        #expect(help.status == 0 && help.standardOutput.hasPrefix("OVERVIEW: List recorded fetches"), "\(help)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    static let commandList = "the commands are fetch, list, show, stats, export, import, report, replay, prune, delete, sessions, push, pull (see fetch-history --help)"

    @Test(arguments: [
        // One edit, and two (the most a suggestion allows).
        (["lst"], "error: 'lst' is not a fetch-history command; did you mean 'list'?"),
        (["lsit"], "error: 'lsit' is not a fetch-history command; did you mean 'list'?"),
        // Nothing within two edits; and `ls` is two edits from `list`, but a suggestion must be closer than the word is long.
        (["-d", "DB", "zzzzzz"], "error: 'zzzzzz' is not a fetch-history command; \(commandList)"),
        (["ls"], "error: 'ls' is not a fetch-history command; \(commandList)"),
    ])
    func aMistypedCommandGetsASuggestionOrTheListOfCommands(_ template: [String], _ expected: String) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When the command's name is mistyped
        let result = try await sandbox.run(template.map { $0 == "DB" ? sandbox.database : $0 })

        // Then the error suggests the closest command, or lists them all (not `help`), and nothing is created
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError == expected + "\n", "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func anErrorLineShowsControlCharactersAsEscapes() async throws {
        // Given a history
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")

        // When a fetch id, and then a command's name, hold terminal escape sequences
        let show = try await sandbox.run("show", "\u{1B}]0;x\u{07}")
        let command = try await sandbox.run("\u{1B}[2J")

        // Then each error line shows them as escapes, and no control character reaches the terminal
        #expect(show.status == 1, "\(show)")
        #expect(show.standardError == #"error: '\x1b]0;x\x07' is not an id or id prefix (ids are hexadecimal digits and dashes)"# + "\n", "\(show)")
        #expect(command.status == 64, "\(command)")
        #expect(command.standardError == #"error: '\x1b[2J' is not a fetch-history command; "# + Self.commandList + "\n", "\(command)")
    }

    // MARK: Durations and dates

    static let durations = "(e.g. 500ms, 2s, 1.5s, 1m30s, 2h, 7d, 3w)"
    static let times = "use 2026-11-22, 2026-11-22T10:00:00 (local time), 2026-11-22T10:00:00Z or +01:00, now, today, yesterday, or a duration ago such as 15m, 2h, 7d"

    /// argument-parser's sentence for a refused `value` of `option`, with what is expected after it.
    static func refused(_ value: String, _ option: String, _ expected: String) -> String {
        "error: The value '\(value)' is invalid for '\(option)': \(expected)"
    }

    @Test(arguments: [
        (["fetch", "--interval", "5"], refused("5", "--interval <duration>", "a duration needs a unit: 5ms, 5s, 5m, 5h, 5d or 5w")),
        (["fetch", "--interval", "5parsecs"], refused("5parsecs", "--interval <duration>", "'parsecs' is not a unit; use ms, s, m, h, d or w \(durations)")),
        (["fetch", "--timeout", "30s1m"], refused("30s1m", "--timeout <duration>", "units go from the largest to the smallest, each once \(durations)")),
        (["fetch", "--latency", "1s2s"], refused("1s2s", "--latency <duration>", "units go from the largest to the smallest, each once \(durations)")),
        (["fetch", "--timeout", "99999999w"], refused("99999999w", "--timeout <duration>", "that is longer than any duration this tool handles")),
        // A number after a unit, with no unit of its own, is not "a unit missing" (that is for a lone number).
        (["fetch", "--interval", "1m30"], refused("1m30", "--interval <duration>", "a duration is a number and a unit \(durations)")),
        (["fetch", "--latency", "fast"], refused("fast", "--latency <duration>", "a duration is a number and a unit \(durations)")),
        (["list", "--since", "2026-13-45"], refused("2026-13-45", "--since <T>", "not a date that exists in a form this tool reads; \(times)")),
        (["list", "--until", "2026-11-22T25:00:00"], refused("2026-11-22T25:00:00", "--until <T>", "not a date that exists in a form this tool reads; \(times)")),
        (["list", "--until", "tomorrow"], refused("tomorrow", "--until <T>", "not a date or a duration; \(times)")),
        // A word that starts with '-' and a letter is no time, nor a negative duration.
        (["list", "--since", "-x"], refused("-x", "--since <T>", "not a date or a duration; \(times)")),
    ])
    func aRefusedValueSaysWhatIsExpected(_ arguments: [String], _ expected: String) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When a duration or date is wrong
        let result = try await sandbox.run(arguments)

        // Then the first line of the error says what is expected, and nothing is recorded
        #expect(result.status == 64, "\(result)")
        let first = result.standardError.split(separator: "\n").first.map(String.init) ?? ""
        #expect(first == expected, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    /// Every option that takes a number (a count, a duration, a time ago),
    /// in every command, given one below its least.
    static let negativeNumbers: [([String], String)] = [
        (["list", "--limit", "-1"], "--limit must be 0 or more, not -1"),
        (["list", "-n", "-1"], "--limit must be 0 or more, not -1"),
        (["sessions", "--limit=-1"], "--limit must be 0 or more, not -1"),
        (["list", "--offset", "-5"], "--offset must be 0 or more, not -5"),
        (["prune", "--keep", "-1"], "--keep must be 0 or more, not -1"),
        (["prune", "--keep=-1"], "--keep must be 0 or more, not -1"),
        (["fetch", "--count", "-1"], "--count must be 1 or more, not -1"),
        (["fetch", "--interval", "-5s"], "--interval must be 0 or more, not -5s"),
        (["fetch", "--interval=-5s"], "--interval must be 0 or more, not -5s"),
        (["fetch", "--latency", "-1h"], "--latency must be 0 or more, not -1h"),
        (["fetch", "--timeout", "-1s"], "--timeout must be longer than 0, not -1s"),
        (["replay", "--latency", "-1s"], "--latency must be 0 or more, not -1s"),
        (["list", "--min-duration", "-250ms"], "--min-duration must be 0 or more, not -250ms"),
        (["stats", "--max-duration", "-2s"], "--max-duration must be 0 or more, not -2s"),
        (["list", "--since", "-2h"], "--since must be a date or a duration of 0 or more, not -2h"),
        // An h among the words once made argument-parser print the help instead.
        (["export", "--until", "-1h"], "--until must be a date or a duration of 0 or more, not -1h"),
        (["stats", "--since", "-1d", "--until", "-1h"], "--since must be a date or a duration of 0 or more, not -1d"),
        (["sessions", "--since", "-1h"], "--since must be a date or a duration of 0 or more, not -1h"),
        (["prune", "--before", "-30d"], "--before must be a date or a duration of 0 or more, not -30d"),
        (["pull", "--from", "postgres://nobody@127.0.0.1:9/none", "--until", "-1h"], "--until must be a date or a duration of 0 or more, not -1h"),
    ]

    @Test(arguments: negativeNumbers)
    func everyNegativeNumberIsRefusedAsListRefusesANegativeLimit(_ arguments: [String], _ sentence: String) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When an option that takes a number gets a negative one, which argument-parser would take for another option
        let result = try await sandbox.run(arguments)

        // Then one error line names the option, its least and the value, and nothing is created
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == "error: " + sentence, "\(result)")
        #expect(result.standardError.components(separatedBy: "error:").count == 2, "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    /// Each as a timeout far longer than a fetch answered at once, however
    /// slow the machine, so the fetch succeeds and the timeout is recorded.
    @Test(arguments: [
        ("1m30s", 90_000), ("3w", 1_814_400_000), ("1h30m", 5_400_000), ("1.5m", 90_000), ("2m03.500s", 123_500),
        ("1d12h", 129_600_000),
    ] as [(String, Int64)])
    func compoundDurationsAndWeeksAreAccepted(_ duration: String, milliseconds: Int64) async throws {
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0", "--timeout", duration)
        let exported = try await sandbox.run("export", "--format", "jsonl")
        #expect(exported.standardOutput.contains("\"timeoutMs\":\(milliseconds),"), "\(exported)")
        // (How many fetches are that recent depends on the machine's speed: only the exit status is checked.)
        let listed = try await sandbox.run("list", "--since", duration)
        #expect(listed.status == 0, "\(listed)")
    }

    @Test func defaultsInHelpAreWrittenAsTheyAreTyped() async throws {
        let sandbox = try Sandbox()
        let fetch = try await sandbox.run("fetch", "--help")
        #expect(fetch.standardOutput.contains("(default: 1s)"), "\(fetch)")
        #expect(!fetch.standardOutput.contains("1.000s"), "\(fetch)")
    }

    // MARK: Colour

    /// `list` on a pseudo-terminal (script(1)), with `environment` and `arguments`.
    func listOnATerminal(_ sandbox: Sandbox, _ arguments: String = "", environment: [String: String]) async throws -> CLIResult {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) from util-linux is needed")
        let command = "exec '\(FetchHistoryProcess.binary.path)' \(arguments) list"
        var base = sandbox.environment()
        base["NO_COLOR"] = nil
        return try await sandbox.run(
            ["-qec", command, "/dev/null"], environment: base.merging(environment) { $1 },
            executable: URL(fileURLWithPath: "/usr/bin/script")
        )
    }

    @Test func colourIsOnForATerminalAndOffForDumbOnesNoColorAndNever() async throws {
        // Given a history
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")

        // When listed on a terminal: plain, TERM=dumb, NO_COLOR, --color never before and after the command
        let plain = try await listOnATerminal(sandbox, environment: ["TERM": "xterm"])
        let dumb = try await listOnATerminal(sandbox, environment: ["TERM": "dumb"])
        let noColor = try await listOnATerminal(sandbox, environment: ["TERM": "xterm", "NO_COLOR": "1"])
        let never = try await listOnATerminal(sandbox, "--color never", environment: ["TERM": "xterm"])

        // Then only the plain terminal gets colour
        #expect(plain.status == 0 && plain.standardOutput.contains("\u{1B}[32msucceeded"), "\(plain)")
        for result in [dumb, noColor, never] {
            #expect(result.status == 0 && result.standardOutput.contains("succeeded"), "\(result)")
            #expect(!result.standardOutput.contains("\u{1B}["), "\(result)")
        }
    }

    @Test func anEmptyNoColorLeavesATerminalColoured() async throws {
        // Given a history
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")

        // When listed on a terminal with NO_COLOR set but empty (no-color.org: only a non-empty value counts)
        let result = try await listOnATerminal(sandbox, environment: ["TERM": "xterm", "NO_COLOR": ""])

        // Then the outcome is coloured
        #expect(result.status == 0 && result.standardOutput.contains("\u{1B}[32msucceeded\u{1B}[0m"), "\(result)")
    }

    @Test func autoColourLeavesAPipeUncoloured() async throws {
        // Given a history, and an environment that would colour a terminal (no NO_COLOR, TERM=xterm)
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")
        var environment = sandbox.environment(.sandbox, ["TERM": "xterm"])
        environment["NO_COLOR"] = nil

        // When listed to a pipe, with the default --color auto
        let result = try await sandbox.run(["list"], environment: environment)

        // Then the outcome is there, without any escape sequence
        #expect(result.status == 0 && result.lines.count == 2 && result.lines[1].contains("  succeeded  "), "\(result)")
        #expect(!result.standardOutput.contains("\u{1B}"), "\(result)")
    }

    @Test func colorAlwaysColoursAPipeAndAnUnknownChoiceIsAUsageError() async throws {
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")
        let always = try await sandbox.run("--color", "always", "list")
        let after = try await sandbox.run("list", "--color=always")
        let wrong = try await sandbox.run("list", "--color", "sometimes")
        #expect(always.status == 0 && always.standardOutput.contains("\u{1B}[32msucceeded"), "\(always)")
        #expect(after.standardOutputData == always.standardOutputData, "\(after)")
        #expect(wrong.status == 64 && wrong.standardError.hasPrefix("error: ") && wrong.standardError.contains("'auto', 'always' or 'never'"), "\(wrong)")
    }

    // MARK: Completion

    @Test func completionScriptsCompleteFileNamesForTheDatabaseTheOutputAndTheImportedFile() async throws {
        let sandbox = try Sandbox()
        let bash = try await sandbox.succeed("--generate-completion-script", "bash").standardOutput
        let zsh = try await sandbox.succeed("--generate-completion-script", "zsh").standardOutput
        let fish = try await sandbox.succeed("--generate-completion-script", "fish").standardOutput

        // bash: the option's case offers files (-f), as does import's first argument.
        for option in ["'-d'|'--database')", "'-o'|'--output')"] {
            let afterOption = try #require(bash.range(of: option), "\(option) in bash").upperBound
            #expect(bash[afterOption...].prefix(80).contains("__fetch-history_add_completions -f"), "\(option): \(bash[afterOption...].prefix(80))")
        }
        let importFunction = try #require(bash.range(of: "_fetch-history_import() {"))
        let importBody = bash[importFunction.upperBound...].prefix(1200)
        #expect(importBody.contains("1)\n        __fetch-history_add_completions -f"), "\(importBody)")

        // zsh: _files, never an empty action.
        #expect(zsh.contains("{-d,--database}'[The history database file.]:path:_files'"), "\(zsh)")
        #expect(zsh.contains("{-o,--output}'[Write to this file instead of standard output (- is standard output).]:file:_files'"), "\(zsh)")
        #expect(zsh.contains("        ':file:_files'"), "import's file: \(zsh)")
        #expect(!zsh.contains(":path:'"), "\(zsh)")

        // fish: -F (files) for the options and import's argument.
        #expect(fish.range(of: #"-s 'd' -l 'database'[^\n]*-rF\n"#, options: .regularExpression) != nil, "\(fish)")
        #expect(fish.range(of: #"-s 'o' -l 'output'[^\n]*-rF\n"#, options: .regularExpression) != nil, "\(fish)")
        #expect(fish.contains(#"__fetch-history_should_offer_completions_for_positional "fetch-history import" -eq 1' -F"#), "\(fish)")
    }

    // MARK: export -o -

    @Test func exportToADashWritesStandardOutputAndNoFile() async throws {
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")
        let plain = try await sandbox.succeed("export", "--format", "jsonl")
        let dash = try await sandbox.succeed("export", "--format", "jsonl", "-o", "-")
        #expect(dash.standardOutputData == plain.standardOutputData && dash.lines.count == 1, "\(dash)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.path("-")))
    }

    @Test func exportHelpNamesEveryField() async throws {
        let sandbox = try Sandbox()
        let help = try await sandbox.succeed("export", "--help").standardOutput
        for key in ExportRecord.keys + ["tappedAt", "timeoutMs", "endedBy", "endedByAt", "answerValue", "answerError"] {
            #expect(help.contains(key), "\(key) in \(help)")
        }
    }

    // MARK: Wording

    @Test func importCountsInTheSingularAndSaysWhenEverythingWasThere() async throws {
        let sandbox = try Sandbox()
        let one = Data((ExportRecord.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0).jsonLine + "\n").utf8)
        let first = try await sandbox.succeed("import", "-", stdin: one)
        let again = try await sandbox.succeed("import", "-", stdin: one)
        let empty = try await sandbox.succeed("import", "-", stdin: Data("[]".utf8))
        #expect(first.standardOutput == "imported 1 fetch: 1 added, 0 already present\n", "\(first)")
        #expect(again.standardOutput == "nothing to import: the 1 fetch is already present\n", "\(again)")
        #expect(empty.standardOutput == "nothing to import: the input has no fetches\n", "\(empty)")
    }

    @Test func replayOfOneFetchSaysFetch() async throws {
        let sandbox = try Sandbox()
        try await sandbox.succeed("fetch", "--latency", "0")
        let replay = try await sandbox.succeed("replay")
        #expect(replay.lines.last == "replay matches 1 fetch", "\(replay)")
    }
}
