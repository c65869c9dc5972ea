@_spi(Benchmarks) import FetchHistory
import Foundation

/// How the cost of each command grows with the history, from 10,000 to
/// 10,000,000 fetches, each command beside `sqlite3` doing the same work on
/// the same file in the same run; drawn as a log–log SVG (`ScaleChart`).
///
/// Commands that should not grow with the history (recording one fetch, the
/// newest 20, the last hour) are held to 2× from the smallest size to the
/// largest; the others to growing no faster than linearly (at most 1.25×
/// linear from one size to the next ten times larger, for noise).
struct ScaleCurve {
    var suite: Suite
    let sizes: [Int]

    /// One command measured at one size.
    struct Point {
        var command: Command
        var size: Int
        var ours: Double
        var sqlite: Double
    }

    enum Command: String, CaseIterable {
        case record = "record one fetch"
        case newest = "list (newest 20)"
        case since = "list --since 1h"
        case grep = "list --grep, no match"
        case stats = "stats"
        case export = "export"
        case prune = "prune --keep 10%"
        case importing = "import"
        case push = "push (team history)"
        case pull = "pull (team history)"
        case teamStats = "stats -d postgres://…"

        /// Should cost the same whatever the history's size.
        var isFlat: Bool { self == .record || self == .newest || self == .since }

        /// What sqlite3 does in its place.
        var baseline: String {
            switch self {
            case .record: "the same two INSERTs"
            case .newest, .since, .grep: "the same SELECT … LIMIT 20"
            case .stats: "GROUP BY + percentiles"
            case .export: "`-json` of the same records"
            case .prune: "the same DELETEs, indexes rebuilt, VACUUM"
            case .importing: "INSERT … SELECT from a staging table, then the indexes"
            case .push: "psql `\\copy … FROM` of the same rows"
            case .pull: "psql `\\copy … TO` + `fetch-history import` of the same rows"
            case .teamStats: "the same aggregates in psql"
            }
        }
    }

    private(set) var points: [Point] = []

    init(suite: Suite, sizes: [Int]) {
        self.suite = suite
        self.sizes = sizes
    }

    mutating func run() throws {
        // The team history's commands join the curve where a PostgreSQL
        // server can be started (its binaries installed, as README's test
        // command does): one throwaway server for every size.
        let team = suite.withTeamHistory ? TeamHistoryBenchmark(suite: suite) : nil
        if let server = team {
            log("scale: starting a PostgreSQL server")
            try server.start()
        }
        defer { team?.stop() }
        for size in sizes {
            try measure(size)
            if let server = team { try measureTeamHistory(size, on: server) }
        }
        report()
    }

    /// Few runs where one takes minutes.
    private func repetitions(_ size: Int, cheap: Bool) -> Int {
        cheap ? suite.repetitions(size >= 10_000_000 ? 5 : 11) : suite.repetitions(size >= 10_000_000 ? 1 : size >= 1_000_000 ? 3 : 5)
    }

    private mutating func add(_ command: Command, _ size: Int, _ runs: (subject: Samples, baseline: Samples, subjectPeakKiB: Int, baselinePeakKiB: Int)) {
        points.append(Point(command: command, size: size, ours: runs.subject.median, sqlite: runs.baseline.median))
    }

    private func sqlite3(_ database: String, _ sql: String, json: Bool = false) -> ChildProcess {
        ChildProcess(["sqlite3", "-readonly", "-batch"] + (json ? ["-json"] : []) + [database, sql])
    }

    private mutating func measure(_ size: Int) throws {
        let jsonl = suite.jsonl(size), db = suite.database(size)
        if !FileManager.default.fileExists(atPath: jsonl) {
            log("scale: generating \(size.formatted) fetches")
            try HistoryGenerator(count: size).writeJSONLines(to: jsonl)
        }
        let cli = suite.cli

        // Import first: it makes the database every other command reads.
        log("scale \(size.formatted): import vs SQLite's bulk load")
        let empty = "\(suite.work)/scale-empty.sqlite"
        Suite.removeDatabase(empty)
        try ChildProcess([cli, "import", "-d", empty, "/dev/null"]).run()
        Suite.removeDatabase(db)
        try ChildProcess([cli, "import", "-d", db, jsonl]).run()
        let indexes = try RawConnection(path: db).rows(HistorySQL.fetchIndexes, []).map { ($0[0] ?? "", $0[1] ?? "") }
        let load = BulkLoad(staging: db, moreStaging: db, file: jsonl, moreFile: jsonl, work: suite.work)
        var imports = Samples(), loads = Samples()
        for _ in 0..<repetitions(size, cheap: false) {
            imports.append(try ChildProcess([cli, "import", "-d", try load.target(copying: empty), jsonl]).run().wall)
            loads.append(try ChildProcess(["sqlite3", "-bail", try load.target(copying: empty), load.script(.intoEmpty, indexes: indexes)]).run().wall)
        }
        Suite.removeDatabase("\(suite.work)/bulk-load-target.sqlite")
        points.append(Point(command: .importing, size: size, ours: imports.median, sqlite: loads.median))

        log("scale \(size.formatted): list, stats, export")
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        add(.newest, size, try suite.alternate(
            ChildProcess([cli, "list", "-d", db]), sqlite3(db, ReferenceQueries.listNewest), repetitions: repetitions(size, cheap: true)
        ))
        add(.since, size, try suite.alternate(
            ChildProcess([cli, "list", "-d", db, "--since", "1h"]),
            sqlite3(db, ReferenceQueries.listRange(since: now - 3_600_000, until: now + 3_600_000)), repetitions: repetitions(size, cheap: true)
        ))
        add(.grep, size, try suite.alternate(
            ChildProcess([cli, "list", "-d", db, "--grep", ReferenceQueries.absentText]),
            sqlite3(db, ReferenceQueries.listGrep), repetitions: repetitions(size, cheap: false)
        ))
        add(.stats, size, try suite.alternate(
            ChildProcess([cli, "stats", "-d", db]), sqlite3(db, ReferenceQueries.stats), repetitions: repetitions(size, cheap: false)
        ))
        add(.export, size, try suite.alternate(
            ChildProcess([cli, "export", "--format", "jsonl", "-d", db]), sqlite3(db, ReferenceQueries.export, json: true),
            repetitions: repetitions(size, cheap: false)
        ))

        log("scale \(size.formatted): record one fetch")
        var records = Samples(), inserts = Samples()
        for _ in 0..<repetitions(size, cheap: true) {
            records.append(try ChildProcess([cli, "fetch", "-d", db, "--latency", "0ms", "--interval", "0ms"]).run().wall)
            inserts.append(try ChildProcess(["sqlite3", "-bail", db, ReferenceQueries.recordOne(at: now)]).run().wall)
        }
        points.append(Point(command: .record, size: size, ours: records.median, sqlite: inserts.median))

        log("scale \(size.formatted): prune --keep 10%")
        var prunes = Samples(), deletes = Samples()
        let copy = "\(suite.work)/scale-prune.sqlite"
        let keep = max(1, size / 10)
        for _ in 0..<repetitions(size, cheap: false) {
            Suite.removeDatabase(copy)
            try FileManager.default.copyItem(atPath: db, toPath: copy)
            prunes.append(try ChildProcess([cli, "prune", "-d", copy, "--keep", String(keep)]).run().wall)
            Suite.removeDatabase(copy)
            try FileManager.default.copyItem(atPath: db, toPath: copy)
            deletes.append(try ChildProcess(["sqlite3", "-bail", copy, ReferenceQueries.prune(keeping: keep, indexes: indexes)]).run().wall)
        }
        Suite.removeDatabase(copy)
        points.append(Point(command: .prune, size: size, ours: prunes.median, sqlite: deletes.median))
    }

    /// push, pull and `stats -d URL` at `size`, against psql's own load,
    /// unload and the same aggregates.
    private mutating func measureTeamHistory(_ size: Int, on server: TeamHistoryBenchmark) throws {
        let db = suite.database(size), cli = suite.cli
        let sessions = "\(suite.work)/scale-sessions.tsv", fetches = "\(suite.work)/scale-fetches.tsv"
        let pulled = "\(suite.work)/scale-pulled.sqlite"
        log("scale \(size.formatted): push, pull and stats on a team history")
        var pushes = Samples(), copiesIn = Samples(), pulls = Samples(), copiesOut = Samples()
        for _ in 0..<repetitions(size, cheap: false) {
            try server.freshDatabase("curve")
            try ChildProcess(["sqlite3", db, "DELETE FROM push_mark"]).run()
            pushes.append(try ChildProcess([cli, "push", "-d", db, "--to", server.url("curve")]).run().wall)
            // What psql loads is what the server holds, unloaded by psql.
            let unload = try server.psql("curve", [
                "\\copy fetch_history.session (\(CopyText.sessionColumns)) TO '\(sessions)'",
                "\\copy (SELECT \(CopyText.fetchColumns) FROM fetch_history.fetch ORDER BY started_at, seq) TO '\(fetches)'",
            ]).run().wall
            try server.freshDatabase("copied")
            copiesIn.append(try server.psql("copied", [
                "\\copy fetch_history.session (\(CopyText.sessionColumns)) FROM '\(sessions)'",
                "\\copy fetch_history.fetch (\(CopyText.fetchColumns)) FROM '\(fetches)'",
            ]).run().wall)
            Suite.removeDatabase(pulled)
            pulls.append(try ChildProcess([cli, "pull", "-d", pulled, "--from", server.url("curve")]).run().wall)
            Suite.removeDatabase(pulled)
            copiesOut.append(unload + (try ChildProcess([cli, "import", "-d", pulled, suite.jsonl(size)]).run().wall))
        }
        Suite.removeDatabase(pulled)
        for file in [sessions, fetches] { try? FileManager.default.removeItem(atPath: file) }
        points.append(Point(command: .push, size: size, ours: pushes.median, sqlite: copiesIn.median))
        points.append(Point(command: .pull, size: size, ours: pulls.median, sqlite: copiesOut.median))
        add(.teamStats, size, try suite.alternate(
            ChildProcess([cli, "stats", "-d", server.url("curve")]), server.psql("curve", ReferenceQueries.serverStats),
            repetitions: repetitions(size, cheap: false)
        ))
        try server.psql("postgres", ["DROP DATABASE copied"]).run()
    }

    /// Whether each command's curve keeps its promise, from the first size to the last.
    func verdict(_ command: Command) -> (text: String, isMet: Bool) {
        let curve = points.filter { $0.command == command }.sorted { $0.size < $1.size }
        guard let first = curve.first, let last = curve.last, curve.count > 1 else { return ("-", true) }
        if command.isFlat {
            let growth = last.ours / first.ours
            return (String(format: "%.2f× from %@ to %@ (flat: ≤ 2×)", growth, first.size.formatted, last.size.formatted), growth <= 2)
        }
        // The steepest step, as the power of the size it grows with.
        let steepest = zip(curve, curve.dropFirst()).map { log($1.ours / $0.ours) / log(Double($1.size) / Double($0.size)) }.max() ?? 0
        return (String(format: "grows as size^%.2f at most (linear: ≤ 1.1)", steepest), steepest <= 1.1)
    }

    private mutating func report() {
        suite.report.scale = points.map { point in
            ScaleRow(command: point.command.rawValue, baseline: point.command.baseline, size: point.size, ours: point.ours, sqlite: point.sqlite)
        }
        suite.report.scaleVerdicts = Command.allCases.map { command in
            let verdict = verdict(command)
            return (command.rawValue, verdict.text, verdict.isMet)
        }
    }
}
