import Foundation
import Testing

/// A test's own database on the shared test server, and a local history.
struct TeamFixture {
    let server: TestPostgresServer
    let database: String
    let sandbox: Sandbox

    /// On the shared server, or on `server`.
    init(on server: TestPostgresServer? = nil) async throws {
        if let server { self.server = server } else { self.server = try await TestPostgresServer.shared() }
        database = try await self.server.makeDatabase()
        sandbox = try Sandbox()
    }

    /// The team history's URL, over TCP with the superuser's password.
    var url: String { server.url(database) }

    /// The standard history with hosts, as a local file's fetches; its
    /// fetch cancelled by the user reads as cancelled because its program
    /// was told to stop, so that every cancel reason crosses the server.
    static let records: [ExportRecord] = Fixtures.standard.enumerated().map { index, record in
        var record = record
        record.host = ["ci-1", "ci-2", "probe-3"][index % 3]
        if record.cancelReason == "user" { record.cancelReason = "terminated" }
        return record
    }

    /// A local file at `name` in the sandbox holding `records`.
    func localFile(_ name: String = "local.sqlite", _ records: [ExportRecord] = TeamFixture.records) async throws -> String {
        let path = sandbox.path(name)
        let file = sandbox.path("\(name).jsonl")
        try ExportRecord.jsonl(records).write(to: URL(fileURLWithPath: file))
        try await succeed(["import", "-d", path, file], limit: Self.bigLimit)
        return path
    }

    /// The bound on a command moving hundreds of thousands of fetches in a
    /// debug build, on a machine busy with the rest of the suite.
    static let bigLimit: Duration = .seconds(600)

    /// Runs the command and records an issue unless it exits 0.
    @discardableResult
    func succeed(
        _ arguments: [String], limit: Duration = FetchHistoryProcess.defaultTimeLimit, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> CLIResult {
        let result = try await sandbox.start(arguments).wait(limit: limit)
        #expect(result.status == 0 && !result.wasSignalled, "\(result)", sourceLocation: sourceLocation)
        return result
    }
}
