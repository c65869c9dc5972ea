import Foundation
import Testing

/// README's install command (Scripts/install.sh), run into a temporary
/// prefix with the programs under test: what `man`, the shells and PATH then
/// find there, and that nothing lands anywhere else.
@Suite("Scripts/install.sh: programs, man pages and completion under a prefix")
struct InstallTests {
    static let package = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let script = package.appending(path: "Scripts/install.sh").path
    static let programs = FetchHistoryProcess.binary.deletingLastPathComponent().path

    /// Runs the install script, as README says, on the programs under test
    /// (`--bin`: no build from inside the tests).
    static func install(_ arguments: [String], in sandbox: Sandbox, shell: String = "/bin/bash") async throws -> CLIResult {
        // The test's own PATH: the script runs `swift`, wherever the toolchain is.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let environment = sandbox.environment(.unset, ["SHELL": shell, "PATH": path])
        let process = try await FetchHistoryProcess.start(
            arguments: [script] + arguments + ["--bin", programs], environment: environment, workingDirectory: sandbox.root,
            executable: URL(fileURLWithPath: "/bin/sh")
        )
        return try await process.wait(limit: .seconds(120))
    }

    /// `man`'s answer for `arguments`, with MANPATH naming only the prefix's pages.
    static func man(_ arguments: [String], prefix: String, in sandbox: Sandbox) async throws -> CLIResult {
        let environment = sandbox.environment(.unset, ["MANPATH": prefix + "/share/man", "MANPAGER": "cat", "MANWIDTH": "80"])
        let process = try await FetchHistoryProcess.start(
            arguments: arguments, environment: environment, workingDirectory: sandbox.root, executable: URL(fileURLWithPath: "/usr/bin/man")
        )
        return try await process.wait()
    }

    @Test func theProgramsPagesAndEveryCompletionScriptLandUnderThePrefixAndNowhereElse() async throws {
        // Given an empty prefix and an empty home
        let sandbox = try Sandbox()
        let prefix = sandbox.path("prefix")

        // When the install command runs for every shell
        let installed = try await Self.install(["--prefix", prefix, "--shell", "all"], in: sandbox)
        #expect(installed.status == 0, "\(installed)")

        // Then the three programs are there and run
        for program in ["fetch-history", "fetch-history-http", "fetch-history-postgres"] {
            #expect(FileManager.default.isExecutableFile(atPath: "\(prefix)/bin/\(program)"), "\(program)")
        }
        let version = try await sandbox.run(["--version"], executable: URL(fileURLWithPath: prefix + "/bin/fetch-history"))
        #expect(version.status == 0 && !version.standardOutput.isEmpty, "\(version)")

        // And each shell's script is where that shell looks, for fetch-history
        let scripts = [
            "share/bash-completion/completions/fetch-history": "complete -o filenames -F _fetch-history fetch-history",
            "share/zsh/site-functions/_fetch-history": "#compdef fetch-history",
            "share/fish/vendor_completions.d/fetch-history.fish": "complete -c 'fetch-history'",
        ]
        for (path, line) in scripts {
            let text = try String(contentsOfFile: prefix + "/" + path, encoding: .utf8)
            #expect(text.contains(line), "\(path)")
        }

        // And there is a page per command and nothing else
        let pages = try FileManager.default.contentsOfDirectory(atPath: prefix + "/share/man/man1").sorted()
        let commands = try await Self.commandNames(in: sandbox)
        #expect(pages == (["fetch-history.1"] + commands.map { "fetch-history-\($0).1" }).sorted(), "\(pages)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix).sorted() == ["bin", "share"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix + "/bin").sorted() == ["fetch-history", "fetch-history-http", "fetch-history-postgres"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: sandbox.home.path).isEmpty, "the install wrote into the home")
    }

    @Test func manFindsAPagePerCommandUnderThePrefix() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/man") else {
            let onCI = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty } ?? false
            #expect(!onCI, "man is not installed on CI: README's test command installs man-db")
            return print("warning: man is not installed; the man page tests did not run")
        }
        // Given an install into a prefix
        let sandbox = try Sandbox()
        let prefix = sandbox.path("prefix")
        let installed = try await Self.install(["--prefix", prefix, "--shell", "none"], in: sandbox)
        #expect(installed.status == 0, "\(installed)")

        // When man looks for the pages, in the prefix alone
        let commands = try await Self.commandNames(in: sandbox)
        var found: [String: CLIResult] = [:]
        for name in ["fetch-history"] + commands.map({ "fetch-history-\($0)" }) {
            found[name] = try await Self.man(["-w", name], prefix: prefix, in: sandbox)
        }
        let list = try await Self.man(["fetch-history", "list"], prefix: prefix, in: sandbox)
        // As a user finds them: no MANPATH, the prefix's bin on PATH
        let environment = sandbox.environment(.unset, ["PATH": prefix + "/bin:/usr/bin:/bin"])
        let byPath = try await FetchHistoryProcess.start(
            arguments: ["-w", "fetch-history-list"], environment: environment, workingDirectory: sandbox.root,
            executable: URL(fileURLWithPath: "/usr/bin/man")
        ).wait()

        // Then every command has its page there
        for (name, result) in found {
            #expect(result.status == 0 && result.standardOutput == "\(prefix)/share/man/man1/\(name).1\n", "\(name): \(result)")
        }
        #expect(byPath.status == 0 && byPath.standardOutput == "\(prefix)/share/man/man1/fetch-history-list.1\n", "\(byPath)")
        // And `man fetch-history list` shows the list page, whole: its name, its options, its examples
        #expect(list.status == 0 && list.standardError.isEmpty, "\(list)")
        #expect(list.standardOutput.contains("fetch-history-list — List recorded fetches"), "\(list)")
        #expect(list.standardOutput.contains("--outcome"), "\(list)")
        #expect(list.standardOutput.contains("fetch-history list --grep 'ÉCHEC' --limit 0"), "\(list)")
    }

    @Test func withoutShellTheShellOfTheUserGetsItsScript() async throws {
        // Given a user whose shell is zsh
        let sandbox = try Sandbox()
        let prefix = sandbox.path("prefix")

        // When the install command runs without --shell
        let installed = try await Self.install(["--prefix", prefix], in: sandbox, shell: "/usr/bin/zsh")

        // Then zsh's script is installed, no other, and the hint says how zsh finds it
        #expect(installed.status == 0, "\(installed)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: prefix + "/share").sorted() == ["man", "zsh"])
        #expect(installed.standardOutput.contains("fpath=(\(prefix)/share/zsh/site-functions $fpath)"), "\(installed)")
    }

    /// The commands fetch-history describes itself as having (argument-parser's `help` aside).
    static func commandNames(in sandbox: Sandbox) async throws -> [String] {
        let described = try await sandbox.run("--experimental-dump-help")
        let object = try JSONSerialization.jsonObject(with: described.standardOutputData) as? [String: Any]
        let command = object?["command"] as? [String: Any]
        let subcommands = command?["subcommands"] as? [[String: Any]] ?? []
        return subcommands.compactMap { $0["commandName"] as? String }.filter { $0 != "help" }
    }
}
