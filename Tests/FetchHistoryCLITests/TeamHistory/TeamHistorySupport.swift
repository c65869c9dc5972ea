import Foundation
import Testing

/// A test's own database on the shared test server, and a local history.
struct TeamFixture {
    let server: TestPostgresServer
    let database: String
    let sandbox: Sandbox

    init() async throws {
        server = try await TestPostgresServer.shared()
        database = try await server.makeDatabase()
        sandbox = try Sandbox()
    }

    /// The team history's URL, over TCP with the superuser's password.
    var url: String { server.url(database) }

    /// The standard history with hosts, as a local file's fetches.
    static let records: [ExportRecord] = Fixtures.standard.enumerated().map { index, record in
        var record = record
        record.host = ["ci-1", "ci-2", "probe-3"][index % 3]
        return record
    }

    /// A local file at `name` in the sandbox holding `records`.
    func localFile(_ name: String = "local.sqlite", _ records: [ExportRecord] = TeamFixture.records) async throws -> String {
        let path = sandbox.path(name)
        let file = sandbox.path("\(name).jsonl")
        try ExportRecord.jsonl(records).write(to: URL(fileURLWithPath: file))
        let result = try await sandbox.run("import", "-d", path, file)
        #expect(result.status == 0, "\(result)")
        return path
    }

    /// Runs the command and records an issue unless it exits 0.
    @discardableResult
    func succeed(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> CLIResult {
        let result = try await sandbox.run(arguments)
        #expect(result.status == 0 && !result.wasSignalled, "\(result)", sourceLocation: sourceLocation)
        return result
    }
}
