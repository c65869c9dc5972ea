import Foundation
import Testing

@Suite("list --format tsv, --no-header and --limit for scripts")
struct ListScriptFormatTests {
    private let header = "id\tsession\tsource\toutcome\tcancelReason\tvalue\terror\tstartedAt\tendedAt\tdurationMs\tstatus\tbytes"

    @Test func tsvHasAHeaderAndOneEscapedLinePerFetch() async throws {
        // Given a failure whose message has a tab, a newline, a backslash, an escape and a
        // carriage return, and a succeeded HTTP fetch
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("failed", id: Ids.fetch(1), at: ISO.ms("2026-11-20T10:00:00"), duration: 80, error: "a\tb\nc\\d\u{1B}[31me\rf"),
            .make("succeeded", id: Ids.fetch(2), source: Fixtures.otherSource, at: ISO.ms("2026-11-20T10:00:01"),
                  duration: 5, value: 42, status: 200, bytes: 2),
        ])

        // When listed as TSV
        let result = try await sandbox.run("list", "--format", "tsv")

        // Then a header, then each fetch on one line, newest first; missing values are empty
        // cells and every cell is one field
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            header,
            "\(Ids.fetch(2))\t\(Ids.session(1))\t\(Fixtures.otherSource)\tsucceeded\t\t42\t\t2026-11-20T10:00:01.000Z\t2026-11-20T10:00:01.005Z\t5\t200\t2",
            "\(Ids.fetch(1))\t\(Ids.session(1))\trandom\tfailed\t\t\t" + #"a\tb\nc\\d\x1B[31me\rf"#
                + "\t2026-11-20T10:00:00.000Z\t2026-11-20T10:00:00.080Z\t80\t\t",
        ])
        #expect(result.lines.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 12 })
    }

    @Test func tsvSaysWhyAFetchWasCancelled() async throws {
        // Given the standard history: one fetch superseded by a newer one, one cancelled by the user
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When the cancelled fetches are listed as TSV
        let result = try await sandbox.run("list", "--format", "tsv", "--no-header", "--outcome", "cancelled")

        // Then the cancelReason column holds each one's reason
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [
            "\(Ids.fetch(4))\t\(Ids.session(2))\trandom\tcancelled\tsuperseded\t\t\t2026-11-21T09:00:00.000Z\t2026-11-21T09:00:00.030Z\t30\t\t",
            "\(Ids.fetch(3))\t\(Ids.session(1))\trandom\tcancelled\tuser\t\t\t2026-11-20T12:00:00.000Z\t2026-11-20T12:00:00.040Z\t40\t\t",
        ], "\(result)")
    }

    @Test func noHeaderLeavesOutTheHeaderOfTSVAndTable() async throws {
        // Given one fetch
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])

        // When listed as TSV and as a table, without a header
        let tsv = try await sandbox.run("list", "--format", "tsv", "--no-header")
        let table = try await sandbox.run("list", "--no-header")

        // Then each prints the fetch's line only
        #expect(tsv.lines.count == 1 && tsv.lines[0].hasPrefix(Ids.fetch(1) + "\t"), "\(tsv)")
        #expect(table.lines.count == 1 && table.lines[0].hasPrefix(String(Ids.fetch(1).prefix(8))), "\(table)")
    }

    @Test func tsvOfNoFetchesIsTheHeaderAlone() async throws {
        // Given an empty history
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])

        // When a filter matches nothing
        let result = try await sandbox.run("list", "--format", "tsv", "--outcome", "failed")

        // Then the header alone: a script still reads the column names
        #expect(result.status == 0, "\(result)")
        #expect(result.lines == [header])
    }

    @Test(arguments: ["json", "jsonl"])
    func noHeaderWithAFormatWithoutOneIsRefused(format: String) async throws {
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])

        let result = try await sandbox.run("list", "--format", format, "--no-header")

        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: --no-header applies to --format table, tsv and csv only, not \(format)"), "\(result)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test(arguments: ["-1", "-20"])
    func aNegativeLimitIsRefusedWithItsValue(limit: String) async throws {
        // Given a history
        let sandbox = try Sandbox()
        try await sandbox.importRecords([.make("succeeded", id: Ids.fetch(1), at: Fixtures.day0)])

        // When listed with a negative limit
        let result = try await sandbox.run("list", "--limit", limit)

        // Then the limit is read as a value and refused with a reason, not as a missing value
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.hasPrefix("error: --limit must be 0 or more, not \(limit)\n"), "\(result)")
        #expect(!result.standardError.contains("Missing value"), "\(result)")
    }

    @Test(arguments: [
        ("bash", #"-W 'running'$'\n''succeeded'$'\n''failed'$'\n''cancelled'$'\n''timed-out'$'\n''interrupted'"#),
        ("zsh", "___outcome=('running' 'succeeded' 'failed' 'cancelled' 'timed-out' 'interrupted')"),
        ("fish", "-l 'outcome' -d 'Only fetches with one of these outcomes: running, succeeded, failed, cancelled, timed-out, interrupted.' -rfka 'running succeeded failed cancelled timed-out interrupted'"),
    ])
    func outcomeCompletesToTheOutcomeNames(shell: String, completion: String) async throws {
        // When the shell's completion script is generated
        let sandbox = try Sandbox()
        let result = try await sandbox.run("--generate-completion-script", shell)

        // Then it offers the outcome names as the values of --outcome (not just in its help text)
        #expect(result.status == 0, "\(result)")
        #expect(result.standardOutput.contains(completion), "\(shell)")
    }

    @Test func listHelpShowsAnExampleOfEachNewOption() async throws {
        let sandbox = try Sandbox()

        let help = try await sandbox.run("list", "--help")

        #expect(help.status == 0, "\(help)")
        for example in [
            "--grep", "--source 127.0.0.1", "--format tsv --no-header", "--follow", "--outcome failed,timed-out",
            "--since yesterday --until today", "--status 5xx", "--min-duration", "--offset",
        ] {
            #expect(help.lines.contains { $0.contains("fetch-history list") && $0.contains(example) }, "\(example)")
        }
    }
}
