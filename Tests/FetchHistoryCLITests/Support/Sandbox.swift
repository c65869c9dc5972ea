import FetchHistoryTesting
import Foundation
import Testing

/// A fresh temporary folder for one test, with a home of its own so the
/// user's real default database is never touched, and a database path in it.
/// Removed when the test lets go of it.
final class Sandbox: @unchecked Sendable {
    // Unchecked: every stored property is a constant.

    let root: URL
    /// `$HOME` for the child processes.
    let home: URL
    /// The database the child uses through FETCH_HISTORY_DB unless told otherwise.
    let database: String

    init() throws {
        root = FileManager.default.temporaryDirectory
            .appending(path: "fetch-history-cli-\(UUID().uuidString.prefix(8))", directoryHint: .isDirectory)
        home = root.appending(path: "home", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        database = root.appending(path: "history.sqlite").path
    }

    deinit {
        try? FileManager.default.removeItem(at: root)
    }

    /// A path inside the sandbox (not created).
    func path(_ relative: String) -> String {
        root.appending(path: relative).path
    }

    /// What FETCH_HISTORY_DB says in a child's environment.
    enum DatabaseVariable {
        /// The sandbox's `database`.
        case sandbox
        /// Not set at all.
        case unset
        case path(String)
    }

    /// The child's whole environment: nothing inherited from the test
    /// process (no XDG_DATA_HOME, no FETCH_HISTORY_DB of the developer's).
    /// UTC, so tables and date-only arguments are predictable.
    func environment(_ variable: DatabaseVariable = .sandbox, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = [
            "HOME": home.path,
            "NO_COLOR": "1",
            "PATH": "/usr/bin:/bin",
            "TZ": "UTC",
            "LANG": "C.UTF-8",
        ]
        switch variable {
        case .sandbox: environment["FETCH_HISTORY_DB"] = database
        case .unset: break
        case .path(let path): environment["FETCH_HISTORY_DB"] = path
        }
        return environment.merging(extra) { $1 }
    }

    /// Runs the binary to its end, with FETCH_HISTORY_DB set to `database`.
    func run(_ arguments: String..., stdin: Data? = nil, environment: [String: String]? = nil) async throws -> CLIResult {
        try await run(arguments, stdin: stdin, environment: environment)
    }

    func run(
        _ arguments: [String], stdin: Data? = nil, environment: [String: String]? = nil,
        executable: URL = FetchHistoryProcess.binary
    ) async throws -> CLIResult {
        let process = try await FetchHistoryProcess.start(
            arguments: arguments, environment: environment ?? self.environment(), workingDirectory: root, standardInput: stdin,
            executable: executable
        )
        return try await process.wait()
    }

    /// Starts the binary and returns at once.
    func start(
        _ arguments: String..., environment: [String: String]? = nil,
        standardOutput: FetchHistoryProcess.StandardOutput = .capture
    ) async throws -> FetchHistoryProcess {
        try await start(arguments, environment: environment, standardOutput: standardOutput)
    }

    func start(
        _ arguments: [String], environment: [String: String]? = nil,
        standardOutput: FetchHistoryProcess.StandardOutput = .capture
    ) async throws -> FetchHistoryProcess {
        try await FetchHistoryProcess.start(
            arguments: arguments, environment: environment ?? self.environment(), workingDirectory: root,
            standardOutput: standardOutput
        )
    }

    /// Runs the binary and records an issue unless it exits 0.
    @discardableResult
    func succeed(_ arguments: String..., stdin: Data? = nil, sourceLocation: SourceLocation = #_sourceLocation) async throws -> CLIResult {
        let result = try await run(arguments, stdin: stdin)
        #expect(result.status == 0 && !result.wasSignalled, "\(result)", sourceLocation: sourceLocation)
        return result
    }

    /// Writes `records` as a JSONL file and imports them into `database`.
    func importRecords(_ records: [ExportRecord], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let file = path("fixture-\(UUID().uuidString.prefix(8)).jsonl")
        // Off the cooperative pool (two threads here): a test's 100,000
        // records take a while to write out, and every other test waits.
        try await runOnDedicatedThread { try ExportRecord.jsonl(records).write(to: URL(fileURLWithPath: file)) }
        let result = try await run("import", file)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        #expect(result.standardOutput.contains("\(records.count) added"), "\(result)", sourceLocation: sourceLocation)
    }

    /// Every fetch in the database, as `export --format jsonl` gives them.
    func exportedRecords(sourceLocation: SourceLocation = #_sourceLocation) async throws -> [ExportRecord] {
        let result = try await run("export", "--format", "jsonl")
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return try result.lines.map { try ExportRecord(jsonLine: $0) }
    }

    /// The ids `list --limit 0 --format jsonl` prints for `filters`, in order.
    func listedIDs(_ filters: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
        let result = try await run(["list", "--limit", "0", "--format", "jsonl"] + filters)
        #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        return try result.lines.map { try ExportRecord(jsonLine: $0).id }
    }

    /// Polls the history with `list` until a fetch with `outcome` appears,
    /// at most `limit`, and returns it. Each poll is a child process, so no
    /// thread of the test's pool ever blocks on the database's locks.
    func waitForFetch(
        _ outcome: String = "running", in database: String? = nil, of process: FetchHistoryProcess,
        limit: Duration = FetchHistoryProcess.defaultTimeLimit
    ) async throws -> ExportRecord {
        let path = database ?? self.database
        let deadline = ContinuousClock.now + limit
        var last: CLIResult?
        while ContinuousClock.now < deadline {
            if FileManager.default.fileExists(atPath: path) {
                let listed = try await run(["list", "--database", path, "--outcome", outcome, "--format", "jsonl", "--limit", "1"])
                last = listed
                if listed.status == 0, let line = listed.lines.first {
                    return try ExportRecord(jsonLine: line)
                }
            }
            guard process.isRunning else { break }
            // No pause: each poll is itself a child process, which paces the loop.
            await Task.yield()
        }
        process.send(SIGKILL)
        let result = try? await process.wait(limit: .seconds(10))
        throw SandboxError(
            "no \(outcome) fetch appeared in \(path) within \(limit); last list: \(last.map(String.init(describing:)) ?? "none"); "
                + "the child: \(result.map(String.init(describing:)) ?? "?")"
        )
    }
}

struct SandboxError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The permission bits of the file or folder at `path`.
func permissions(_ path: String) throws -> Int {
    let attributes = try FileManager.default.attributesOfItem(atPath: path)
    return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
}

/// The test process's umask (which its children inherit), read from
/// /proc rather than by setting it, which would race with other tests.
func currentUmask() throws -> Int {
    let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Umask:") }),
          let mask = Int(line.dropFirst("Umask:".count).trimmingCharacters(in: .whitespaces), radix: 8)
    else { throw SandboxError("no Umask in /proc/self/status") }
    return mask
}
