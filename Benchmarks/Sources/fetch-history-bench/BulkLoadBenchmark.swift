@_spi(Benchmarks) import FetchHistory
import Foundation

/// `fetch-history import` against SQLite itself loading the same rows into
/// the same schema, side by side in one run, both as whole processes: into
/// an empty database (SQLite: `INSERT … SELECT` from a staging table, then
/// the indexes), and into a database that already holds `size` fetches
/// (SQLite: `INSERT … SELECT` into its live indexes; building them again
/// over both halves was slower, see `Database+Import.swift`).
///
/// SQLite's side is its pure copy: the same page cache
/// (`HistorySQL.importCacheKibibytes`), one rollback-journal transaction,
/// no foreign-key check, and the staging rows already in a database file
/// (the history as `fetch-history import` stored it), so it does no
/// parsing at all. An import into an empty history builds a new file
/// beside it (`HistoryStore.buildingNew`); into a full one it writes in
/// place, through the WAL.
///
/// With a previous build (`--previous-cli`), the same comparisons run for it
/// in the same rounds, each against SQLite loading its own schema: the
/// before and after of a change, under the same load.
struct BulkLoad {
    /// One build of fetch-history and the databases made with it.
    struct Subject {
        var name: String
        var cli: String
        /// A new, empty database of this build's schema.
        var empty: String
        /// `size` fetches, imported by this build.
        var full: String
    }

    enum Case: CaseIterable {
        case intoEmpty, intoFull
    }

    /// The rows of the history file (`Suite.jsonl`), and of a second,
    /// different one of the same size: the staging tables.
    var staging: String
    var moreStaging: String
    /// The two history files: the first loaded into an empty database, the
    /// second into one holding the first.
    var file: String
    var moreFile: String
    var work: String

    /// The `sqlite3` script that loads the staging rows of `kind` into the
    /// database of `subject`, whose indexes (name, SQL) are `indexes`.
    func script(_ kind: Case, indexes: [(name: String, sql: String)]) -> String {
        Self.pureCopy(from: kind == .intoEmpty ? staging : moreStaging, kind, indexes: indexes)
    }

    /// The `sqlite3` script of SQLite's pure copy of the history file
    /// `staging` into the database it runs on, whose indexes are `indexes`.
    static func pureCopy(from staging: String, _ kind: Case, indexes: [(name: String, sql: String)]) -> String {
        let columns = """
            id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error, \
            http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error, host
            """
        let source = staging.replacingOccurrences(of: "'", with: "''")
        // SQLite's pure copy (issue 36): one rollback-journal transaction,
        // no foreign-key check per row.
        var lines = [
            "PRAGMA journal_mode = DELETE;",
            "PRAGMA foreign_keys = OFF;",
            "PRAGMA cache_size = -\(HistorySQL.importCacheKibibytes);",
            "ATTACH '\(source)' AS staging;",
            "BEGIN IMMEDIATE;",
        ]
        if kind == .intoEmpty { lines += indexes.map { HistorySQL.dropIndex($0.name) + ";" } }
        lines.append("INSERT INTO session SELECT * FROM staging.session WHERE true ORDER BY rowid ON CONFLICT DO NOTHING;")
        lines.append("INSERT INTO fetch (\(columns)) SELECT \(columns) FROM staging.fetch ORDER BY rowid;")
        if kind == .intoEmpty { lines += indexes.map { $0.sql + ";" } }
        lines.append("COMMIT;")
        return lines.joined(separator: "\n")
    }

    /// Where each run writes: a fresh copy of the subject's database.
    func target(copying template: String) throws -> String {
        let target = "\(work)/bulk-load-target.sqlite"
        Suite.removeDatabase(target)
        try FileManager.default.copyItem(atPath: template, toPath: target)
        return target
    }

    func fetchCount(_ path: String) throws -> Int64 {
        let connection = try RawConnection(path: path)
        return Int64(try connection.rows("SELECT count(*) FROM fetch", []).first?.first.flatMap { $0 } ?? "") ?? -1
    }
}

extension Suite {
    /// Makes the databases and files both sides start from, untimed.
    func prepareBulkLoad() throws -> (BulkLoad, [BulkLoad.Subject]) {
        let more = "\(work)/history-\(size)-more.jsonl"
        log("generating a second history of \(size.formatted) fetches, and its staging database")
        try HistoryGenerator(count: size, seed: 0x0DD_5EED).writeJSONLines(to: more)
        let moreStaging = "\(work)/history-\(size)-more.sqlite"
        Suite.removeDatabase(moreStaging)
        try ChildProcess([cli, "import", "-d", moreStaging, more]).run()
        let bulkLoad = BulkLoad(
            staging: database(size), moreStaging: moreStaging, file: jsonl(size), moreFile: more, work: work
        )
        var subjects: [BulkLoad.Subject] = []
        for (name, cli) in [("fetch-history", cli)] + (previousCLI.map { [("previous build", $0)] } ?? []) {
            let tag = subjects.count
            let empty = "\(work)/bulk-load-empty-\(tag).sqlite"
            Suite.removeDatabase(empty)
            try ChildProcess([cli, "import", "-d", empty, "/dev/null"]).run()
            var full = database(size)
            if tag > 0 {
                log("importing \(size.formatted) fetches with the \(name)")
                full = "\(work)/bulk-load-full-\(tag).sqlite"
                Suite.removeDatabase(full)
                try ChildProcess([cli, "import", "-d", full, jsonl(size)]).run()
            }
            subjects.append(BulkLoad.Subject(name: name, cli: cli, empty: empty, full: full))
        }
        return (bulkLoad, subjects)
    }

    /// `fetch-history import` into an empty database and into a full one,
    /// each alternating with SQLite's own load of the same rows: on an idle
    /// machine, then (into the empty one) while `yes > /dev/null` keeps a
    /// core busy.
    mutating func bulkLoadComparisons() throws {
        let (bulkLoad, subjects) = try prepareBulkLoad()
        var indexes: [Int: [(name: String, sql: String)]] = [:]
        for (number, subject) in subjects.enumerated() {
            let connection = try RawConnection(path: subject.empty)
            indexes[number] = try connection.rows(HistorySQL.fetchIndexes, []).map { ($0[0] ?? "", $0[1] ?? "") }
        }
        log("bulk load of \(size.formatted): fetch-history import vs SQLite INSERT … SELECT, into an empty and a full database")
        let idle = try bulkLoadRounds(bulkLoad, subjects, indexes: indexes, kinds: BulkLoad.Case.allCases)
        log("bulk load of \(size.formatted) into an empty database, with `yes > /dev/null` keeping a core busy")
        let busy = try BusyCore.while { try bulkLoadRounds(bulkLoad, subjects, indexes: indexes, kinds: [.intoEmpty]) }
        Suite.removeDatabase("\(work)/bulk-load-target.sqlite")

        for (number, subject) in subjects.enumerated() {
            let suffix = number == 0 ? "" : " (previous build)"
            func add(_ rounds: BulkLoadRounds, _ kind: BulkLoad.Case, name: String, baseline: String, target: Comparison.Target) {
                let ours = BulkLoadRounds.Key(subject: number, kind: kind, isBaseline: false)
                let sqlite = BulkLoadRounds.Key(subject: number, kind: kind, isBaseline: true)
                report.comparisons.append(Comparison(
                    name: name + suffix, subject: subject.name, subjectMedian: rounds.wall[ours]!.median, baseline: baseline,
                    baselineMedian: rounds.wall[sqlite]!.median, unit: .seconds, target: target, repetitions: rounds.count
                ))
                report.absolute.append((
                    name: "\(name)\(suffix): peak RSS, fetch-history / SQLite",
                    value: "\(Report.mebibytes(rounds.peak[ours]!)) / \(Report.mebibytes(rounds.peak[sqlite]!))"
                ))
            }
            let load = Readme.pureCopy
            add(idle, .intoEmpty, name: "import \(size.formatted) into an empty database (`fetch-history import`, JSONL parsed)",
                baseline: load, target: .timeRatioAtMost(1.3, stated: "≤ 1.3×"))
            let empty = (
                ours: BulkLoadRounds.Key(subject: number, kind: .intoEmpty, isBaseline: false),
                sqlite: BulkLoadRounds.Key(subject: number, kind: .intoEmpty, isBaseline: true)
            )
            report.comparisons.append(Comparison(
                name: "import \(size.formatted) into an empty database: CPU (user + sys)\(suffix)", subject: subject.name,
                subjectMedian: idle.cpu[empty.ours]!.median, baseline: "SQLite's CPU, the same load",
                baselineMedian: idle.cpu[empty.sqlite]!.median, unit: .seconds,
                target: .none, repetitions: idle.count
            ))
            add(busy, .intoEmpty, name: "import \(size.formatted) into an empty database, a core kept busy (`yes > /dev/null`)",
                baseline: load + ", the same core busy", target: .timeRatioAtMost(1.6, stated: "≤ 1.6×"))
            add(idle, .intoFull, name: "import \(size.formatted) into a database holding \(size.formatted)",
                baseline: "SQLite's pure copy: INSERT … SELECT from a staging table", target: .none)
        }
    }

    /// Alternating rounds of each subject's import and SQLite's load, for `kinds`.
    private func bulkLoadRounds(
        _ bulkLoad: BulkLoad, _ subjects: [BulkLoad.Subject], indexes: [Int: [(name: String, sql: String)]],
        kinds: [BulkLoad.Case]
    ) throws -> BulkLoadRounds {
        var rounds = BulkLoadRounds(count: repetitions(3))
        for round in 0..<rounds.count {
            for (number, subject) in subjects.enumerated() {
                for kind in kinds.rotated(by: round) {
                    for isBaseline in [false, true].rotated(by: round) {
                        let target = try bulkLoad.target(copying: kind == .intoEmpty ? subject.empty : subject.full)
                        let command = isBaseline
                            ? ["sqlite3", "-bail", target, bulkLoad.script(kind, indexes: indexes[number]!)]
                            : [subject.cli, "import", "-d", target, kind == .intoEmpty ? bulkLoad.file : bulkLoad.moreFile]
                        let cost = try ChildProcess(command).run(measuringMemory: true)
                        let key = BulkLoadRounds.Key(subject: number, kind: kind, isBaseline: isBaseline)
                        rounds.wall[key, default: Samples()].append(cost.wall)
                        rounds.cpu[key, default: Samples()].append(cost.cpu)
                        rounds.peak[key] = max(rounds.peak[key] ?? 0, cost.peakKiB ?? 0)
                        if round == 0 {
                            let expected = Int64(kind == .intoEmpty ? size : 2 * size)
                            let count = try bulkLoad.fetchCount(target)
                            guard count == expected else {
                                throw BenchmarkError("\(command[0]) left \(count) fetches in \(target), not \(expected)")
                            }
                        }
                    }
                }
            }
        }
        return rounds
    }
}

/// What rounds of bulk loads measured, by subject, case and side.
struct BulkLoadRounds {
    struct Key: Hashable { var subject: Int, kind: BulkLoad.Case, isBaseline: Bool }
    var count: Int
    var wall: [Key: Samples] = [:], cpu: [Key: Samples] = [:], peak: [Key: Int] = [:]
}

/// Another process keeping one core busy, as a user's other work does.
enum BusyCore {
    static func `while`<T>(_ body: () throws -> T) throws -> T {
        let yes = Process()
        yes.executableURL = URL(fileURLWithPath: "/usr/bin/yes")
        yes.standardOutput = FileHandle(forWritingAtPath: "/dev/null")
        try yes.run()
        defer {
            yes.terminate()
            yes.waitUntilExit()
        }
        return try body()
    }
}
