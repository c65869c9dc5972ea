import Foundation
import Testing

/// Tab after `show`, `delete`, `replay`, `--session` and `--source`: the
/// scripts of `--generate-completion-script`, driven as each shell drives
/// them, offer the ids and sources of the history the command line names.
@Suite("Completion of ids and sources in bash, zsh and fish")
struct ValueCompletionTests {
    /// A history of three fetches in two sessions and three sources (one of
    /// them a URL whose `$(…)` would run if a script expanded it), and
    /// another file with one fetch of its own.
    struct Histories {
        let sandbox: Sandbox
        let other: String
        let marker: String
        let trap: String

        init() async throws {
            sandbox = try Sandbox()
            other = sandbox.path("other.sqlite")
            marker = sandbox.path("expanded")
            trap = "http://h/$(touch \(marker))"
            let day0 = Fixtures.day0
            try await sandbox.importRecords([
                .make("succeeded", id: Ids.fetch(1), session: Ids.session(1), at: day0),
                .make("failed", id: Ids.fetch(2), session: Ids.session(1), source: "http://127.0.0.1:8080/number", at: day0 + 1000),
                .make("failed", id: Ids.fetch(3), session: Ids.session(2), source: trap, at: day0 + 2000),
            ])
            let file = sandbox.path("other.jsonl")
            try ExportRecord.jsonl([.make("succeeded", id: Ids.fetch(7), session: Ids.session(7), source: "https://other.example/n", at: day0)])
                .write(to: URL(fileURLWithPath: file))
            let imported = try await sandbox.run("import", "-d", other, file)
            #expect(imported.status == 0, "\(imported)")
        }
    }

    // MARK: In each shell

    @Test(arguments: CompletingShell.allCases)
    func idsAfterShowDeleteReplayAndSessionComeFromTheDefaultHistory(_ shell: CompletingShell) async throws {
        guard shell.isAvailable else { return CompletingShell.noteMissing(shell) }
        // Given the default history (FETCH_HISTORY_DB)
        let histories = try await Histories()

        // When ids are completed after each command and option that takes one
        let show = try await shell.complete(["show", ""], in: histories.sandbox)
        let showPrefix = try await shell.complete(["show", "00000002"], in: histories.sandbox)
        let delete = try await shell.complete(["delete", Ids.fetch(1), ""], in: histories.sandbox)
        let replay = try await shell.complete(["replay", ""], in: histories.sandbox)
        let session = try await shell.complete(["list", "--session", ""], in: histories.sandbox)

        // Then they are its fetches' ids (those with the prefix typed) and its sessions' ids
        let fetchIDs: Set = [Ids.fetch(1), Ids.fetch(2), Ids.fetch(3)]
        #expect(Set(show) == fetchIDs, "\(show)")
        #expect(showPrefix == [Ids.fetch(2)])
        #expect(Set(delete) == fetchIDs, "\(delete)")
        #expect(Set(replay) == [Ids.session(1), Ids.session(2)], "\(replay)")
        #expect(Set(session) == [Ids.session(1), Ids.session(2)], "\(session)")
    }

    @Test(arguments: CompletingShell.allCases)
    func sourcesAfterSourceAreTheRecordedOnesAndNeverRunAsCode(_ shell: CompletingShell) async throws {
        guard shell.isAvailable else { return CompletingShell.noteMissing(shell) }
        // Given a history whose sources include a URL with `$(touch …)` in it
        let histories = try await Histories()

        // When sources are completed, from nothing and from their first letter
        let all = try await shell.complete(["list", "--source", ""], in: histories.sandbox)
        let urls = try await shell.complete(["stats", "--source", "h"], in: histories.sandbox)

        // Then they are the recorded sources, colons and dollars intact, and nothing ran
        #expect(Set(all) == ["random", "http://127.0.0.1:8080/number", histories.trap], "\(all)")
        #expect(Set(urls) == ["http://127.0.0.1:8080/number", histories.trap], "\(urls)")
        #expect(!FileManager.default.fileExists(atPath: histories.marker), "a completion script ran a recorded source")
    }

    @Test(arguments: CompletingShell.allCases)
    func aDatabaseOnTheCommandLineIsTheOneCompleted(_ shell: CompletingShell) async throws {
        guard shell.isAvailable else { return CompletingShell.noteMissing(shell) }
        // Given a second history, named on the command line after the command's name,
        // once in quotes as a shell user may type it
        let histories = try await Histories()

        // When ids and sources are completed
        let short = try await shell.complete(["show", "-d", "'\(histories.other)'", ""], in: histories.sandbox)
        let long = try await shell.complete(["replay", "--database", histories.other, ""], in: histories.sandbox)
        let sources = try await shell.complete(["export", "-d", histories.other, "--source", ""], in: histories.sandbox)

        // Then they come from that file, not from the default one
        #expect(short == [Ids.fetch(7)])
        #expect(long == [Ids.session(7)])
        #expect(sources == ["https://other.example/n"])
    }

    @Test(arguments: CompletingShell.allCases)
    func aDatabaseBeforeTheCommandsNameIsTheOneCompleted(_ shell: CompletingShell) async throws {
        guard shell.isAvailable else { return CompletingShell.noteMissing(shell) }
        // Given a second history, named before the command's name, as the program reads it too
        let histories = try await Histories()

        // When ids, sources, the command's name and the options' own values are completed
        let ids = try await shell.complete(["-d", histories.other, "show", ""], in: histories.sandbox)
        let sessions = try await shell.complete(["--color", "never", "--database", histories.other, "replay", ""], in: histories.sandbox)
        let sources = try await shell.complete(["-d", histories.other, "list", "--source", ""], in: histories.sandbox)
        let commands = try await shell.complete(["-d", histories.other, "sh"], in: histories.sandbox)
        let colors = try await shell.complete(["--color", ""], in: histories.sandbox)

        // Then the values come from that file, the name is a command's, and --color offers its three
        #expect(ids == [Ids.fetch(7)], "\(ids)")
        #expect(sessions == [Ids.session(7)], "\(sessions)")
        #expect(sources == ["https://other.example/n"], "\(sources)")
        #expect(commands == ["show"], "\(commands)")
        #expect(Set(colors) == ["auto", "always", "never"], "\(colors)")
    }

    // MARK: The program the scripts ask

    @Test func aMissingHistoryCompletesNothingSaysNothingAndIsNotCreated() async throws {
        // Given no history at the default place nor at a named one
        let sandbox = try Sandbox()
        let named = sandbox.path("named.sqlite")

        // When each shell's script asks the program for ids and sources
        var results: [CLIResult] = []
        for shell in ["bash", "zsh", "fish"] {
            let environment = sandbox.environment(.sandbox, ["SAP_SHELL": shell])
            results.append(try await sandbox.run(
                ["---completion", "show", "--", "positional@0", "2", "0", "fetch-history", "show", ""], environment: environment
            ))
            results.append(try await sandbox.run(
                ["---completion", "list", "--", "--source", "4", "0", "fetch-history", "-d", named, "list", "--source", ""],
                environment: environment
            ))
        }

        // Then it answers nothing, writes nothing on standard error, and creates no file
        for result in results {
            #expect(result.status == 0 && result.standardError.isEmpty, "\(result)")
            #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
        #expect(!FileManager.default.fileExists(atPath: named))
    }

    @Test func zshAndFishShowWhatEachIdIs() async throws {
        // Given a history
        let histories = try await Histories()

        // When zsh's and fish's scripts ask for fetch ids
        func ask(_ shell: String) async throws -> CLIResult {
            try await histories.sandbox.run(
                ["---completion", "show", "--", "positional@0", "2", "8", "fetch-history", "show", "00000001"],
                environment: histories.sandbox.environment(.sandbox, ["SAP_SHELL": shell, "TZ": "UTC"])
            )
        }
        let zsh = try await ask("zsh")
        let fish = try await ask("fish")

        // Then each id comes with its outcome, start and source, as each shell reads a description
        #expect(zsh.lines.first == "\(Ids.fetch(1)):succeeded  2026-11-20 10:00:00  random", "\(zsh)")
        #expect(fish.lines == ["\(Ids.fetch(1))\tsucceeded  2026-11-20 10:00:00  random"], "\(fish)")
    }

    /// On CI every shell is there (README's test command installs them).
    @Test func theShellsAreInstalledOnCI() {
        let onCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
        for shell in CompletingShell.allCases where onCI {
            #expect(shell.isAvailable, "\(shell.rawValue) is not installed on CI: README's test command installs it")
        }
    }
}

/// A shell that completes a `fetch-history` command line with the script
/// `--generate-completion-script` writes for it, without a terminal of its
/// own (zsh gets one from its zpty module).
enum CompletingShell: String, CaseIterable, Sendable {
    case bash, zsh, fish

    var executable: String? {
        ["/usr/bin/\(rawValue)", "/bin/\(rawValue)"].first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    var isAvailable: Bool { executable != nil }

    static func noteMissing(_ shell: CompletingShell) {
        let onCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
        #expect(!onCI, "\(shell.rawValue) is not installed on CI")
        print("warning: \(shell.rawValue) is not installed; its completion tests did not run")
    }

    /// The candidates the shell offers for the last of `words`, typed after
    /// `fetch-history` (an empty last word: Tab after a space). The program
    /// the script runs is the one under test, first on PATH.
    func complete(_ words: [String], in sandbox: Sandbox) async throws -> [String] {
        let folder = sandbox.path("completion-\(rawValue)-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let scriptName = self == .zsh ? "_fetch-history" : "fetch-history.\(rawValue)"
        let generated = try await sandbox.run("--generate-completion-script", rawValue)
        #expect(generated.status == 0, "\(generated)")
        try generated.standardOutputData.write(to: URL(fileURLWithPath: folder + "/" + scriptName))
        let driver = folder + "/driver"
        try driverScript.write(toFile: driver, atomically: true, encoding: .utf8)

        let line = (["fetch-history"] + words).joined(separator: " ")
        let arguments: [String] = switch self {
        case .bash: [driver, folder + "/" + scriptName] + words
        case .zsh: ["-f", driver, folder, folder + "/candidates", line]
        case .fish: ["--no-config", driver, folder + "/" + scriptName, line]
        }
        let programs = FetchHistoryProcess.binary.deletingLastPathComponent().path
        let environment = sandbox.environment(.sandbox, ["PATH": "\(programs):/usr/bin:/bin"])
        let process = try await FetchHistoryProcess.start(
            arguments: arguments, environment: environment, workingDirectory: sandbox.root, executable: URL(fileURLWithPath: executable!)
        )
        let result = try await process.wait()
        #expect(result.status == 0 && !result.wasSignalled, "\(result)")

        let output = self == .zsh ? (try? String(contentsOfFile: folder + "/candidates", encoding: .utf8)) ?? "" : result.standardOutput
        var candidates: [String] = []
        for line in output.split(separator: "\n") {
            // fish: the value, a tab, its description; zsh records each value twice.
            let value = String(line.split(separator: "\t", maxSplits: 1, omittingEmptySubsequences: false)[0])
            if !value.isEmpty, !candidates.contains(value) { candidates.append(value) }
        }
        return candidates
    }

    /// What runs the completion, as the shell would on Tab.
    private var driverScript: String {
        switch self {
        case .bash:
            // The function `complete -p` names is called as readline calls it:
            // COMP_WORDS and COMP_CWORD set, the command, the word and the one before.
            #"""
            source "$1"; shift
            function=$(complete -p fetch-history | sed -n 's/.*-F \([^ ]*\) .*/\1/p')
            COMP_WORDS=(fetch-history "$@")
            COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
            COMP_LINE="${COMP_WORDS[*]}"
            COMP_POINT=${#COMP_LINE}
            "$function" fetch-history "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
            printf '%s\n' "${COMPREPLY[@]}"
            """#
        case .zsh:
            // An interactive zsh in a pseudo-terminal (zpty) with the script
            // on its fpath: the line is typed, then Tab; every match the
            // script adds is appended to the candidates file. Each step
            // waits for the prompt or a marker, never for time.
            #"""
            zmodload zsh/zpty
            zpty shell zsh -f -i
            zpty -w shell "bindkey -e; LISTMAX=100000; fpath=(${(q)1} \$fpath); autoload -Uz compinit; compinit -u -D; compadd() { local -a m; builtin compadd -O m \"\$@\"; print -rl -- \$m >> ${(q)2}; builtin compadd \"\$@\"; }; PS1='RE''ADY> '"
            zpty -r shell output '*READY> *'
            zpty -w -n shell "$3"$'\t'
            zpty -w shell $'\x15print -r -- __DO""NE__'
            zpty -r shell output '*__DONE__*'
            zpty -d shell
            """#
        case .fish:
            // fish 3 answers `commandline -C` (the cursor) only in an
            // interactive session; `complete -C` completes at the end of
            // the token, which is what the script asks for.
            #"""
            function commandline
                if contains -- -tC $argv
                    string length -- (builtin commandline -ct)
                else
                    builtin commandline $argv
                end
            end
            source $argv[1]
            complete -C $argv[2]
            """#
        }
    }
}
