import Foundation
import Testing

/// A short option with its value attached (`-n1`, `-dhistory.sqlite`,
/// `-oout.json`), as every getopt tool takes it.
@Suite("Short options take their value attached")
struct JoinedShortOptionTests {
    @Test func limitDatabaseAndOutputTakeAnAttachedValue() async throws {
        // Given a history of three fetches in a file named on the command line only
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Array(Fixtures.standard.prefix(3)))
        let environment = sandbox.environment(.unset)
        let output = sandbox.path("out.jsonl")

        // When the limit, the database and the output are given with their values attached
        let list = try await sandbox.run(["list", "-n1", "-d\(sandbox.database)", "--format", "jsonl"], environment: environment)
        let before = try await sandbox.run(["-d\(sandbox.database)", "list", "-n2", "--format", "jsonl"], environment: environment)
        let sessions = try await sandbox.run(["sessions", "-n1", "-d\(sandbox.database)", "--format", "jsonl"], environment: environment)
        let export = try await sandbox.run(["export", "-d\(sandbox.database)", "--format", "jsonl", "-o\(output)"], environment: environment)

        // Then each reads them as if they were separate words
        #expect(list.status == 0 && list.lines.count == 1, "\(list)")
        #expect(before.status == 0 && before.lines.count == 2, "\(before)")
        #expect(sessions.status == 0 && sessions.lines.count == 1, "\(sessions)")
        #expect(export.status == 0, "\(export)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").count == 3)
    }
}
