@_spi(Benchmarks) import FetchHistory
import Foundation

/// `fetch-history import` against SQLite itself loading the same rows into
/// the same schema, side by side in one run, both as whole processes: into
/// an empty database (SQLite: `INSERT … SELECT` from a staging table, then
/// the indexes), and into a database that already holds `size` fetches
/// (SQLite: `INSERT … SELECT` into its live indexes; building them again
/// over both halves was slower, see `Database+Import.swift`).
///
/// SQLite gets what the import gets: the same page cache
/// (`HistorySQL.importCacheKibibytes`), foreign keys on, one transaction,
/// and the staging rows already in a database file (the history as
/// `fetch-history import` stored it), so it does no parsing at all.
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
        let columns = """
            id, session_id, source, started_at, ended_at, duration_ms, outcome, cancel_reason, value, error, \
            http_status, response_bytes, tapped_at, timeout_ms, ended_by, ended_by_at, answer_value, answer_error, host
            """
        let source = (kind == .intoEmpty ? staging : moreStaging).replacingOccurrences(of: "'", with: "''")
        var lines = [
            "PRAGMA foreign_keys = ON;",
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
    /// each alternating with SQLite's own load of the same rows.
    mutating func bulkLoadComparisons() throws {
        let (bulkLoad, subjects) = try prepareBulkLoad()
        let runs = repetitions(3)
        log("bulk load of \(size.formatted): fetch-history import vs SQLite INSERT … SELECT, into an empty and a full database")
        struct Key: Hashable { var subject: Int, kind: BulkLoad.Case, isBaseline: Bool }
        var wall: [Key: Samples] = [:], cpu: [Key: Samples] = [:], peak: [Key: Int] = [:]
        var indexes: [Int: [(name: String, sql: String)]] = [:]
        for (number, subject) in subjects.enumerated() {
            let connection = try RawConnection(path: subject.empty)
            indexes[number] = try connection.rows(HistorySQL.fetchIndexes, []).map { ($0[0] ?? "", $0[1] ?? "") }
        }
        for round in 0..<runs {
            for (number, subject) in subjects.enumerated() {
                for kind in BulkLoad.Case.allCases.rotated(by: round) {
                    for isBaseline in [false, true].rotated(by: round) {
                        let target = try bulkLoad.target(copying: kind == .intoEmpty ? subject.empty : subject.full)
                        let command = isBaseline
                            ? ["sqlite3", "-bail", target, bulkLoad.script(kind, indexes: indexes[number]!)]
                            : [subject.cli, "import", "-d", target, kind == .intoEmpty ? bulkLoad.file : bulkLoad.moreFile]
                        let cost = try ChildProcess(command).run(measuringMemory: true)
                        let key = Key(subject: number, kind: kind, isBaseline: isBaseline)
                        wall[key, default: Samples()].append(cost.wall)
                        cpu[key, default: Samples()].append(cost.cpu)
                        peak[key] = max(peak[key] ?? 0, cost.peakKiB ?? 0)
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
        Suite.removeDatabase("\(work)/bulk-load-target.sqlite")
        for (number, subject) in subjects.enumerated() {
            let suffix = number == 0 ? "" : " (previous build)"
            for kind in BulkLoad.Case.allCases {
                let ours = Key(subject: number, kind: kind, isBaseline: false)
                let sqlite = Key(subject: number, kind: kind, isBaseline: true)
                let (name, baseline, target): (String, String, Comparison.Target) = switch kind {
                case .intoEmpty: (
                    "import \(size.formatted) into an empty database (`fetch-history import`, JSONL parsed)\(suffix)",
                    "SQLite: INSERT … SELECT from a staging table, then the indexes", .timeRatioAtMost(1.5, stated: "≤ 1.5×")
                )
                case .intoFull: (
                    "import \(size.formatted) into a database holding \(size.formatted)\(suffix)",
                    "SQLite: INSERT … SELECT from a staging table", .timeRatioAtMost(2, stated: "≤ 2×")
                )
                }
                report.comparisons.append(Comparison(
                    name: name, subject: subject.name, subjectMedian: wall[ours]!.median, baseline: baseline,
                    baselineMedian: wall[sqlite]!.median, unit: .seconds, target: target, repetitions: runs
                ))
                report.absolute.append((
                    name: "\(name): CPU (user + sys), fetch-history / SQLite",
                    value: String(
                        format: "%.3f s / %.3f s (%.2f)", cpu[ours]!.median, cpu[sqlite]!.median,
                        cpu[ours]!.median / cpu[sqlite]!.median
                    )
                ))
                report.absolute.append((
                    name: "\(name): peak RSS, fetch-history / SQLite",
                    value: "\(Report.mebibytes(peak[ours]!)) / \(Report.mebibytes(peak[sqlite]!))"
                ))
            }
        }
    }
}
