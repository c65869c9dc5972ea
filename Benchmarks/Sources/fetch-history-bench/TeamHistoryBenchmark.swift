@_spi(Benchmarks) import FetchHistory
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A team history on PostgreSQL against PostgreSQL's own tools, on a
/// throwaway server of the harness's own (a Unix socket in the work
/// folder, no TCP): `push` against `psql \copy … FROM`, a push with nothing
/// new, `stats` and `list` against the same queries typed into psql; and,
/// for `imports`, `pull` against `psql \copy … TO` plus a local import or
/// SQLite's pure copy of the same rows.
struct TeamHistoryBenchmark {
    var suite: Suite
    let folder: String
    let port = 54_329

    init(suite: Suite) {
        self.suite = suite
        folder = suite.work + "/pg"
    }

    private var binaries: String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        return "\(root)/\(versions.last ?? 15)/bin"
    }

    private var isRoot: Bool { geteuid() == 0 }

    /// The URL of `database` through the socket.
    func url(_ database: String) -> String { "postgres:///\(database)?host=\(folder)&port=\(port)&user=postgres" }

    func psql(_ database: String, _ commands: [String]) -> ChildProcess {
        ChildProcess(["psql", "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", folder, "-p", String(port), "-U", "postgres", "-d", database]
            + commands.flatMap { ["-c", $0] })
    }

    /// Runs a server program, as `postgres` when the harness runs as root,
    /// with every inherited descriptor closed (a daemon must not keep ours).
    private func server(_ program: String, _ arguments: [String]) throws {
        let command = ([binaries + "/" + program] + arguments).map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }
            .joined(separator: " ")
        let shell = #"for fd in /proc/$$/fd/*; do n=${fd##*/}; [ "$n" -gt 2 ] && eval "exec $n>&-"; done 2>/dev/null; "#
            + "exec \(command) < /dev/null >> \(folder)/server.out 2>&1"
        try ChildProcess(isRoot ? ["runuser", "-u", "postgres", "--", "/bin/bash", "-c", shell] : ["/bin/bash", "-c", shell]).run()
    }

    func start() throws {
        stop()
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if isRoot { try ChildProcess(["chown", "postgres", folder]).run() }
        try server("initdb", ["-D", folder + "/data", "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C"])
        // Durable, as a team's server is: fsync and synchronous commits on.
        try server("pg_ctl", ["-D", folder + "/data", "-l", folder + "/log", "-w", "-t", "120", "start", "-o",
                              "-k \(folder) -c listen_addresses='' -p \(port) -c shared_buffers=256MB"])
    }

    func stop() {
        _ = try? server("pg_ctl", ["-D", folder + "/data", "-m", "fast", "-w", "stop"])
    }

    /// A new empty database with the team history's schema, made by fetch-history itself.
    func freshDatabase(_ name: String) throws {
        try psql("postgres", ["DROP DATABASE IF EXISTS \(name)", "CREATE DATABASE \(name)"]).run()
        try ChildProcess([suite.cli, "list", "-d", url(name)]).run()
    }

    mutating func run() throws {
        log("team history: starting a PostgreSQL server")
        try start()
        defer { stop() }
        let size = suite.size
        let local = suite.database(size)
        let forgetPushes = ChildProcess(["sqlite3", local, "DELETE FROM push_mark"])

        // The same rows as COPY text, for psql's own load.
        log("team history: writing the rows of \(size.formatted) fetches for psql \\copy")
        let sessions = "\(suite.work)/copy-sessions.tsv", fetches = "\(suite.work)/copy-fetches.tsv"
        try CopyText.write(from: local, sessions: sessions, fetches: fetches)

        log("team history: push of \(size.formatted) into an empty team history vs psql \\copy")
        var pushes = Samples(), copies = Samples(), repushes = Samples()
        for _ in 0..<suite.repetitions(3) {
            try freshDatabase("pushed")
            try forgetPushes.run()
            pushes.append(try ChildProcess([suite.cli, "push", "-d", local, "--to", url("pushed")]).run().wall)
            repushes.append(try ChildProcess([suite.cli, "push", "-d", local, "--to", url("pushed")]).run().wall)
            try freshDatabase("copied")
            copies.append(try psql("copied", [
                "\\copy fetch_history.session (\(CopyText.sessionColumns)) FROM '\(sessions)'",
                "\\copy fetch_history.fetch (\(CopyText.fetchColumns)) FROM '\(fetches)'",
            ]).run().wall)
        }
        suite.report.comparisons.append(Comparison(
            name: "push \(size.formatted) into an empty team history", subject: "fetch-history", subjectMedian: pushes.median,
            baseline: "`psql \\copy … FROM` of the same rows", baselineMedian: copies.median, unit: .seconds,
            target: .timeRatioAtMost(1.5, stated: "≤ 1.5×"), repetitions: pushes.values.count
        ))
        suite.report.comparisons.append(Comparison(
            name: "push again, nothing new", subject: "fetch-history", subjectMedian: repushes.median,
            baseline: "`psql \\copy … FROM` of the same rows", baselineMedian: copies.median, unit: .seconds,
            target: .timeRatioAtMost(0.1, stated: "≤ 10 %"), repetitions: repushes.values.count
        ))

        // The pull is `imports`' (`runPull`).
        log("team history: stats and list against psql")
        let stats = try suite.alternate(
            ChildProcess([suite.cli, "stats", "-d", url("pushed")]), psql("pushed", ReferenceQueries.serverStats),
            repetitions: suite.repetitions(7)
        )
        suite.report.comparisons.append(Comparison(
            name: "stats on the team history", subject: "fetch-history", subjectMedian: stats.subject.median,
            baseline: "the same aggregates in psql", baselineMedian: stats.baseline.median, unit: .milliseconds,
            target: .timeRatioAtMost(2, stated: "≤ 2×"), repetitions: stats.subject.values.count
        ))
        let list = try suite.alternate(
            ChildProcess([suite.cli, "list", "-d", url("pushed")]), psql("pushed", [ReferenceQueries.serverNewest]),
            repetitions: suite.repetitions(21)
        )
        suite.report.comparisons.append(Comparison(
            name: "list (newest 20) on the team history", subject: "fetch-history", subjectMedian: list.subject.median,
            baseline: "psql process", baselineMedian: list.baseline.median, unit: .milliseconds,
            target: .timeRatioAtMost(3, stated: "≤ 3×"), repetitions: list.subject.values.count
        ))

        log("team history: memory of push and pull at each size")
        let pulledFile = "\(suite.work)/pulled.sqlite"
        for size in suite.sizes {
            try freshDatabase("memory")
            let file = suite.database(size)
            try ChildProcess(["sqlite3", file, "DELETE FROM push_mark"]).run()
            let push = try ChildProcess([suite.cli, "push", "-d", file, "--to", url("memory")]).run(measuringMemory: true)
            Suite.removeDatabase(pulledFile)
            let pull = try ChildProcess([suite.cli, "pull", "-d", pulledFile, "--from", url("memory")]).run(measuringMemory: true)
            suite.report.notes.append(
                "Team history, \(size.formatted) fetches: push \(String(format: "%.3f", push.wall)) s, peak \(String(format: "%.1f", Double(push.peakKiB ?? 0) / 1024)) MiB; "
                    + "pull \(String(format: "%.3f", pull.wall)) s, peak \(String(format: "%.1f", Double(pull.peakKiB ?? 0) / 1024)) MiB."
            )
        }
        Suite.removeDatabase(pulledFile)
    }
}

extension TeamHistoryBenchmark {
    /// Only the pull (`fetch-history-bench imports`): a team history filled
    /// by psql's own load of the suite's history, untimed, then pulled.
    mutating func runPull() throws {
        log("team history: starting a PostgreSQL server")
        try start()
        defer { stop() }
        log("team history: loading \(suite.size.formatted) fetches into it with psql \\copy")
        let sessions = "\(suite.work)/copy-sessions.tsv", fetches = "\(suite.work)/copy-fetches.tsv"
        try CopyText.write(from: suite.database(suite.size), sessions: sessions, fetches: fetches)
        try freshDatabase("pushed")
        try psql("pushed", [
            "\\copy fetch_history.session (\(CopyText.sessionColumns)) FROM '\(sessions)'",
            "\\copy fetch_history.fetch (\(CopyText.fetchColumns)) FROM '\(fetches)'",
        ]).run()
        try pullComparisons(from: "pushed")
    }

    /// `pull` of the team history `database` into a new file, against
    /// `psql \copy … TO` of its rows followed by either `fetch-history
    /// import` of them or SQLite's pure copy of them (issue 36's floor: the
    /// file the import made copied by `INSERT … SELECT`, as `imports` does).
    mutating func pullComparisons(from database: String) throws {
        let size = suite.size
        log("team history: pull of \(size.formatted) vs psql \\copy TO, then a local import or SQLite's pure copy")
        let pulledFile = "\(suite.work)/pulled.sqlite", importedFile = "\(suite.work)/imported.sqlite"
        let empty = "\(suite.work)/pull-empty.sqlite", copiedFile = "\(suite.work)/copied.sqlite"
        Suite.removeDatabase(empty)
        try ChildProcess([suite.cli, "import", "-d", empty, "/dev/null"]).run()
        let indexes = try RawConnection(path: empty).rows(HistorySQL.fetchIndexes, []).map { ($0[0] ?? "", $0[1] ?? "") }
        let pureCopy = BulkLoad.pureCopy(from: suite.database(size), .intoEmpty, indexes: indexes)
        var pulls = Samples(), withImport = Samples(), withPureCopy = Samples()
        for _ in 0..<suite.repetitions(3) {
            Suite.removeDatabase(pulledFile)
            pulls.append(try ChildProcess([suite.cli, "pull", "-d", pulledFile, "--from", url(database)]).run().wall)
            let copyOut = try psql(database, [
                "\\copy (SELECT \(CopyText.fetchColumns) FROM fetch_history.fetch ORDER BY started_at, seq) TO '\(suite.work)/copied-out.tsv'",
            ]).run().wall
            Suite.removeDatabase(importedFile)
            withImport.append(copyOut + (try ChildProcess([suite.cli, "import", "-d", importedFile, suite.jsonl(size)]).run().wall))
            Suite.removeDatabase(copiedFile)
            try FileManager.default.copyItem(atPath: empty, toPath: copiedFile)
            withPureCopy.append(copyOut + (try ChildProcess(["sqlite3", "-bail", copiedFile, pureCopy]).run().wall))
        }
        for file in [pulledFile, importedFile, copiedFile, empty] { Suite.removeDatabase(file) }
        suite.report.comparisons.append(Comparison(
            name: "pull \(size.formatted) into an empty file", subject: "fetch-history", subjectMedian: pulls.median,
            baseline: "`psql \\copy … TO` + `fetch-history import` of the same rows", baselineMedian: withImport.median,
            unit: .seconds, target: .timeRatioAtMost(1.5, stated: "≤ 1.5×"), repetitions: pulls.values.count
        ))
        suite.report.comparisons.append(Comparison(
            name: "pull \(size.formatted) into a new file, against SQLite's copy", subject: "fetch-history", subjectMedian: pulls.median,
            baseline: "`psql \\copy … TO` + SQLite's pure copy of the same rows", baselineMedian: withPureCopy.median,
            unit: .seconds, target: .timeRatioAtMost(1.3, stated: "≤ 1.3×"), repetitions: pulls.values.count
        ))
    }
}

/// The rows of a local history as `COPY`'s text format, for psql's own load.
enum CopyText {
    static let sessionColumns = "id, started_at, source, host, process_id, boot_id, process_started"
    static let fetchColumns = """
        id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error, http_status, \
        response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error, host
        """

    /// Writes the sessions and the ended fetches of the history at `path`
    /// (an unended one as interrupted, as a push sends it).
    static func write(from path: String, sessions: String, fetches: String) throws {
        let store = try HistoryStore(path: path, access: .readOnly)
        var sessionText = "", fetchText = ""
        var seen = Set<UUID>()
        try store.read { db in
            try db.forEachFetch { fetch in
                if seen.insert(fetch.sessionID).inserted, let session = try db.session(id: fetch.sessionID) {
                    sessionText += row([
                        BenchmarkIDs.text(of: session.id), "\(session.startedAt.millisecondsSince1970)", session.source, session.process.host,
                        "\(session.process.processID)", session.process.bootID, session.process.startTicks.map { "\($0)" },
                    ])
                }
                let script = fetch.script
                fetchText += row([
                    BenchmarkIDs.text(of: fetch.id), BenchmarkIDs.text(of: fetch.sessionID), fetch.source, "\(fetch.startedAt.millisecondsSince1970)",
                    fetch.endedAt.map { "\($0.millisecondsSince1970)" }, fetch.durationMilliseconds.map { "\($0)" },
                    fetch.outcome == nil ? "interrupted" : fetch.status.rawValue, fetch.cancelReason?.rawValue, fetch.value?.json,
                    fetch.errorMessage, fetch.response.map { "\($0.status)" }, fetch.response.map { "\($0.bytes)" },
                    script.map { "\($0.tappedAt.millisecondsSince1970)" }, script?.timeoutMilliseconds.map { "\($0)" },
                    script?.end?.cause.name, script?.end.map { "\($0.at.millisecondsSince1970)" },
                    script?.end?.cause.answerValue?.json, script?.end?.cause.answerError, fetch.host,
                ])
            }
        }
        try sessionText.write(toFile: sessions, atomically: true, encoding: .utf8)
        try fetchText.write(toFile: fetches, atomically: true, encoding: .utf8)
    }

    private static func row(_ fields: [String?]) -> String {
        fields.map { field in
            guard let field else { return "\\N" }
            return field.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\t", with: "\\t")
                .replacingOccurrences(of: "\n", with: "\\n").replacingOccurrences(of: "\r", with: "\\r")
        }.joined(separator: "\t") + "\n"
    }
}
