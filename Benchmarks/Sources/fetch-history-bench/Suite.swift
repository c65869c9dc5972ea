import FetchHistory
import Foundation

/// Every benchmark of issue 7, run side by side on the same database files,
/// ending in one Markdown report.
struct Suite {
    /// The history size the comparisons run at (export, list, stats, import).
    var size: Int
    /// The release `fetch-history` binary.
    var cli: String
    /// Where histories and databases are written (never inside the repository).
    var work: String
    /// Fetches recorded per recording run.
    var recordCount: Int
    /// Multiplies every repetition count (a quick look: 0.5).
    var repetitionScale: Double
    /// An earlier `fetch-history` whose imports run in the same rounds.
    var previousCLI: String?
    /// Whether the team history's comparisons run (PostgreSQL's server must be installed).
    var withTeamHistory = FileManager.default.fileExists(atPath: "/usr/lib/postgresql")

    var report: Report

    init(size: Int, cli: String, work: String, recordCount: Int, repetitionScale: Double, previousCLI: String? = nil) {
        self.size = size
        self.cli = cli
        self.work = work
        self.recordCount = recordCount
        self.repetitionScale = repetitionScale
        self.previousCLI = previousCLI
        report = Report(size: size)
        // Where Machine.describe writes what the tools print.
        try? FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        report.machine = Machine.describe(work: work, revision: ProcessInfo.processInfo.environment["FETCH_HISTORY_REVISION"])
    }

    /// The sizes whose export memory is compared: 10k, 100k, 1M, up to `size`.
    var sizes: [Int] {
        Array(Set([10_000, 100_000, 1_000_000, size].filter { $0 <= size })).sorted()
    }

    func repetitions(_ count: Int) -> Int { max(1, Int((Double(count) * repetitionScale).rounded())) }
    func jsonl(_ size: Int) -> String { "\(work)/history-\(size).jsonl" }
    func database(_ size: Int) -> String { "\(work)/history-\(size).sqlite" }

    mutating func run() throws -> Report {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let loadBefore = Self.loadAverage()
        for size in sizes {
            log("generating \(size.formatted) fetches")
            try HistoryGenerator(count: size).writeJSONLines(to: jsonl(size))
            Self.removeDatabase(database(size))
            log("importing them with fetch-history import")
            try ChildProcess([cli, "import", "-d", database(size), jsonl(size)]).run()
        }
        try checkEquivalence(on: database(sizes[0]))
        try exportComparisons()
        try listComparisons()
        try statsComparison()
        try processStart()
        // The bulk loads against SQLite's copy, and the pull, are `imports`' own report.
        try importComparisons()
        try recordingComparisons()
        if withTeamHistory {
            var team = TeamHistoryBenchmark(suite: self)
            try team.run()
            report = team.suite.report
        }
        if InstructionBenchmark.isAvailable {
            var instructions = InstructionBenchmark(suite: self)
            try instructions.run()
            report = instructions.suite.report
        }
        report.notes.append(loadNote(since: loadBefore))
        report.notes.append(
            "Processes write standard output to /dev/null; each is run once to warm the page cache, then fetch-history and the baseline alternate."
        )
        report.notes.append(
            "sqlite3 queries are in Sources/fetch-history-bench/ReferenceQueries.swift; their output was checked against fetch-history's at \(sizes[0].formatted) fetches."
        )
        return report
    }

    /// Only the comparisons of `fetch-history import` with SQLite's own bulk
    /// load (`fetch-history-bench imports`), and `withPull`, of `pull`.
    mutating func runImports(withPull: Bool) throws -> Report {
        let loadBefore = try prepareHistory()
        try bulkLoadComparisons()
        if withPull, withTeamHistory {
            var team = TeamHistoryBenchmark(suite: self)
            try team.runPull()
            report = team.suite.report
        }
        report.notes.append(loadNote(since: loadBefore))
        return report
    }

    /// Generates `size` fetches and imports them, untimed: what the focused
    /// runs start from. Returns the load average before.
    private func prepareHistory() throws -> String {
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let loadBefore = Self.loadAverage()
        log("generating \(size.formatted) fetches")
        try HistoryGenerator(count: size).writeJSONLines(to: jsonl(size))
        Self.removeDatabase(database(size))
        log("importing them with fetch-history import")
        try ChildProcess([cli, "import", "-d", database(size), jsonl(size)]).run()
        return loadBefore
    }

    /// Only the comparisons of the answers (issue 34, `fetch-history-bench
    /// answers`): `stats`, `stats --by problem` and `report`, and with
    /// `previousCLI` the report against an earlier build's.
    mutating func runAnswers() throws -> Report {
        let loadBefore = try prepareHistory()
        try statsComparison()
        try problemStatsComparison()
        try reportComparison()
        try previousReportComparison()
        report.notes.append(loadNote(since: loadBefore))
        return report
    }

    private func loadNote(since loadBefore: String) -> String {
        "Load average (1, 5, 15 min) at the start: \(loadBefore); at the end: \(Self.loadAverage()). Anything else running on the machine slows both sides of a comparison, but not always equally."
    }

    // MARK: - Whole processes

    /// Runs `subject` and `baseline` alternately, after one warm-up each.
    /// With `measuringMemory`, every run goes through GNU time and the
    /// peaks are the highest seen.
    func alternate(
        _ subject: ChildProcess, _ baseline: ChildProcess, repetitions: Int, measuringMemory: Bool = false
    ) throws -> (subject: Samples, baseline: Samples, subjectPeakKiB: Int, baselinePeakKiB: Int) {
        try subject.run()
        try baseline.run()
        var subjectSamples = Samples(), baselineSamples = Samples()
        var subjectPeak = 0, baselinePeak = 0
        for index in 0..<repetitions {
            for (isSubject, process) in index % 2 == 0 ? [(true, subject), (false, baseline)] : [(false, baseline), (true, subject)] {
                let cost = try process.run(measuringMemory: measuringMemory)
                if isSubject {
                    subjectSamples.append(cost.wall)
                    subjectPeak = max(subjectPeak, cost.peakKiB ?? 0)
                } else {
                    baselineSamples.append(cost.wall)
                    baselinePeak = max(baselinePeak, cost.peakKiB ?? 0)
                }
            }
        }
        return (subjectSamples, baselineSamples, subjectPeak, baselinePeak)
    }

    private func sqlite3(_ database: String, _ sql: String, json: Bool = false) -> ChildProcess {
        ChildProcess(["sqlite3", "-readonly", "-batch"] + (json ? ["-json"] : []) + [database, sql])
    }

    private mutating func exportComparisons() throws {
        for size in sizes {
            log("export of \(size.formatted): fetch-history vs sqlite3 -json")
            let export = ChildProcess([cli, "export", "--format", "jsonl", "-d", database(size)])
            let query = sqlite3(database(size), ReferenceQueries.export, json: true)
            let runs = try alternate(export, query, repetitions: repetitions(5), measuringMemory: true)
            report.memory.append(MemoryRow(
                size: size, exportMedian: runs.subject.median, exportPeakKiB: runs.subjectPeakKiB,
                sqlitePeakKiB: runs.baselinePeakKiB
            ))
            if size == self.size {
                report.comparisons.append(Comparison(
                    name: "export --format jsonl", subject: "fetch-history", subjectMedian: runs.subject.median,
                    baseline: "`sqlite3 -json` SELECT", baselineMedian: runs.baseline.median, unit: .seconds,
                    target: .timeRatioAtMost(1 / 1.5, stated: "≥ 1.5× faster"), repetitions: runs.subject.values.count
                ))
            }
        }
        let peak = report.memory.last!.exportPeakKiB
        report.comparisons.append(Comparison(
            name: "export peak RSS at \(size.formatted)", subject: "fetch-history",
            subjectMedian: Double(peak) / 1024, baseline: "32 MiB budget", baselineMedian: 32,
            unit: .mebibytes, target: .timeRatioAtMost(1, stated: "≤ 32 MiB"), repetitions: 1
        ))
    }

    /// `list --since/--until` covers one week in April.
    private var listRange: (since: Timestamp, until: Timestamp) {
        let since = HistoryGenerator.yearStart + 100 * 86_400_000
        return (Timestamp(millisecondsSince1970: since), Timestamp(millisecondsSince1970: since + 7 * 86_400_000))
    }

    private mutating func listComparisons() throws {
        let db = database(size)
        let range = listRange
        let cases: [(String, [String], String)] = [
            ("list (newest 20)", [], ReferenceQueries.listNewest),
            ("list --outcome failed", ["--outcome", "failed"], ReferenceQueries.listFailed),
            (
                "list --since/--until (1 week)",
                ["--since", range.since.iso8601, "--until", range.until.iso8601],
                ReferenceQueries.listRange(since: range.since.millisecondsSince1970, until: range.until.millisecondsSince1970)
            ),
        ]
        for (name, arguments, sql) in cases {
            log(name)
            let runs = try alternate(
                ChildProcess([cli, "list", "-d", db] + arguments), sqlite3(db, sql), repetitions: repetitions(21)
            )
            report.comparisons.append(Comparison(
                name: name, subject: "fetch-history", subjectMedian: runs.subject.median,
                baseline: "sqlite3 process", baselineMedian: runs.baseline.median, unit: .milliseconds,
                target: .timeRatioAtMost(3, stated: "≤ 3×"), repetitions: runs.subject.values.count
            ))
        }
    }

    private mutating func statsComparison() throws {
        log("stats")
        let db = database(size)
        let runs = try alternate(
            ChildProcess([cli, "stats", "-d", db]), sqlite3(db, ReferenceQueries.stats), repetitions: repetitions(7)
        )
        report.comparisons.append(Comparison(
            name: "stats", subject: "fetch-history", subjectMedian: runs.subject.median,
            baseline: "sqlite3 GROUP BY + percentiles", baselineMedian: runs.baseline.median, unit: .milliseconds,
            target: .timeRatioAtMost(1, stated: "≤ 1×"), repetitions: runs.subject.values.count
        ))
    }

    /// `stats --by problem` against `stats --by source` on the same history
    /// (issue 34: ≤ 1.5×): both read every row they group, the problems
    /// only those that did not succeed, each distinct error masked once.
    private mutating func problemStatsComparison() throws {
        log("stats --by problem")
        let db = database(size)
        let runs = try alternate(
            ChildProcess([cli, "stats", "--by", "problem", "-d", db]), ChildProcess([cli, "stats", "--by", "source", "-d", db]),
            repetitions: repetitions(7)
        )
        report.comparisons.append(Comparison(
            name: "stats --by problem", subject: "fetch-history", subjectMedian: runs.subject.median,
            baseline: "`stats --by source` on the same history", baselineMedian: runs.baseline.median, unit: .milliseconds,
            target: .timeRatioAtMost(1.5, stated: "≤ 1.5×"), repetitions: runs.subject.values.count
        ))
    }

    /// `report` against `stats --by source`, which reads every row for the
    /// same per-source aggregate the page's table needs (issue 34: no
    /// slower), and against `stats`, for scale: issue 24 asked ≤ 2× of it
    /// when `stats` read every row too; it now counts from the indexes
    /// alone, about a tenth of a read of every row. The page's size beside.
    private mutating func reportComparison() throws {
        log("report")
        let db = database(size)
        let page = "\(work)/report.html"
        let report = ChildProcess([cli, "report", "-d", db, "-o", page])
        let againstStats = try alternate(report, ChildProcess([cli, "stats", "-d", db]), repetitions: repetitions(5))
        let againstBySource = try alternate(report, ChildProcess([cli, "stats", "--by", "source", "-d", db]), repetitions: repetitions(5))
        self.report.comparisons.append(Comparison(
            name: "report of \(size.formatted) fetches", subject: "fetch-history", subjectMedian: againstStats.subject.median,
            baseline: "`stats` on the same history", baselineMedian: againstStats.baseline.median, unit: .seconds,
            target: .none, repetitions: againstStats.subject.values.count
        ))
        self.report.comparisons.append(Comparison(
            name: "report of \(size.formatted) fetches", subject: "fetch-history", subjectMedian: againstBySource.subject.median,
            baseline: "`stats --by source` on the same history", baselineMedian: againstBySource.baseline.median, unit: .seconds,
            target: .timeRatioAtMost(1, stated: "no slower"), repetitions: againstBySource.subject.values.count
        ))
        let bytes = (try FileManager.default.attributesOfItem(atPath: page)[.size] as? Int) ?? 0
        self.report.absolute.append((name: "report of \(size.formatted) fetches: the page's size (≤ 5 MB)", value: String(format: "%.2f MB", Double(bytes) / 1e6)))
    }

    /// `report` against the same command of `previousCLI`, each on the
    /// history it imported itself from the same file (an earlier build may
    /// refuse a history of a newer schema).
    private mutating func previousReportComparison() throws {
        guard let previousCLI else { return }
        log("report, against the previous build")
        let previousDatabase = "\(work)/history-\(size)-previous.sqlite"
        Self.removeDatabase(previousDatabase)
        try ChildProcess([previousCLI, "import", "-d", previousDatabase, jsonl(size)]).run()
        let runs = try alternate(
            ChildProcess([cli, "report", "-d", database(size), "-o", "\(work)/report.html"]),
            ChildProcess([previousCLI, "report", "-d", previousDatabase, "-o", "\(work)/report-previous.html"]),
            repetitions: repetitions(5)
        )
        report.comparisons.append(Comparison(
            name: "report of \(size.formatted) fetches", subject: "fetch-history", subjectMedian: runs.subject.median,
            baseline: "the previous build's `report`", baselineMedian: runs.baseline.median,
            unit: .seconds, target: .timeRatioAtMost(1, stated: "no slower"), repetitions: runs.subject.values.count
        ))
        Self.removeDatabase(previousDatabase)
    }

    private mutating func processStart() throws {
        log("process start")
        let empty = "\(work)/empty.sqlite"
        Self.removeDatabase(empty)
        _ = try HistoryStore(path: empty, access: .create)
        let version = try alternate(
            ChildProcess([cli, "--version"]), ChildProcess(["sqlite3", "--version"]), repetitions: repetitions(31)
        )
        report.comparisons.append(Comparison(
            name: "`--version`", subject: "fetch-history", subjectMedian: version.subject.median,
            baseline: "`sqlite3 --version`", baselineMedian: version.baseline.median, unit: .milliseconds,
            target: .none, repetitions: version.subject.values.count
        ))
        let list = try alternate(
            ChildProcess([cli, "list", "-d", empty]), sqlite3(empty, ReferenceQueries.listNewest),
            repetitions: repetitions(31)
        )
        report.comparisons.append(Comparison(
            name: "list on an empty database", subject: "fetch-history", subjectMedian: list.subject.median,
            baseline: "sqlite3 process", baselineMedian: list.baseline.median, unit: .milliseconds,
            target: .timeRatioAtMost(3, stated: "≤ 3× (as list)"), repetitions: list.subject.values.count
        ))
    }

    // MARK: - Writing

    private mutating func importComparisons() throws {
        let target = "\(work)/import.sqlite"
        let runs = repetitions(3)
        log("import of \(size.formatted): fetch-history import (process), and in process: store, raw C, GRDB")
        let fetches = Array(HistoryGenerator(count: size))
        var cliSamples = Samples()
        var cliPeak = 0
        var samples: [ImportEngine: Samples] = [:]
        // The process takes its turn among the engines, so a busy moment on
        // the machine does not fall on one of them only.
        let turns: [ImportEngine?] = [nil] + ImportEngine.allCases
        for round in 0..<runs {
            for engine in turns.rotated(by: round) {
                Self.removeDatabase(target)
                guard let engine else {
                    let cost = try ChildProcess([cli, "import", "-d", target, jsonl(size)]).run(measuringMemory: true)
                    cliSamples.append(cost.wall)
                    cliPeak = max(cliPeak, cost.peakKiB ?? 0)
                    continue
                }
                _ = try HistoryStore(path: target, access: .create)
                let (seconds, added) = try engine.importFetches(fetches, into: target)
                guard added == size else { throw BenchmarkError("\(engine) imported \(added) of \(size)") }
                samples[engine, default: Samples()].append(seconds)
            }
        }
        Self.removeDatabase(target)
        let raw = samples[.raw]!.median
        report.comparisons.append(Comparison(
            name: "import \(size.formatted) (`fetch-history import` process, JSONL parse included)",
            subject: "fetch-history", subjectMedian: cliSamples.median, baseline: "raw C batch insert",
            baselineMedian: raw, unit: .seconds, target: .timeRatioAtMost(1 / 0.8, stated: "≥ 0.8× speed"),
            repetitions: runs
        ))
        report.comparisons.append(Comparison(
            name: "import \(size.formatted) (`importFetches`, in process)", subject: "fetch-history",
            subjectMedian: samples[.store]!.median, baseline: "raw C batch insert", baselineMedian: raw,
            unit: .seconds, target: .timeRatioAtMost(1 / 0.8, stated: "≥ 0.8× speed"), repetitions: runs
        ))
        report.comparisons.append(Comparison(
            name: "import \(size.formatted) (`importFetches`, in process)", subject: "fetch-history",
            subjectMedian: samples[.store]!.median, baseline: "GRDB batch insert",
            baselineMedian: samples[.grdb]!.median, unit: .seconds, target: .none, repetitions: runs
        ))
        report.absolute.append((
            name: "`fetch-history import` of \(size.formatted): peak RSS", value: Report.mebibytes(cliPeak)
        ))
        report.absolute.append((
            name: "import \(size.formatted) in process: store / raw C / GRDB",
            value: ImportEngine.allCases.map { String(format: "%.3f s", samples[$0]!.median) }.joined(separator: " / ")
        ))
    }

    /// Recording runs on the work folder's disk, where WAL checkpoints pay
    /// for `fsync`, and on tmpfs (`/dev/shm`, when there is one), where only
    /// the CPU cost of each layer is left.
    private mutating func recordingComparisons() throws {
        let fetches = RecordedFetch.generated(count: recordCount)
        let runs = repetitions(5)
        var places = [("disk", work)]
        if FileManager.default.fileExists(atPath: "/dev/shm") { places.append(("tmpfs", "/dev/shm")) }
        for (place, folder) in places {
            let target = "\(folder)/fetch-history-bench-record-\(getpid()).sqlite"
            log("recording \(recordCount.formatted) fetches × \(runs) on \(place): store, raw C, GRDB")
            var samples: [RecordingEngine: Samples] = [:]
            for round in 0..<runs {
                for engine in RecordingEngine.allCases.rotated(by: round) {
                    Self.removeDatabase(target)
                    _ = try HistoryStore(path: target, access: .create)
                    let seconds = try engine.record(fetches, into: target)
                    samples[engine, default: Samples()].append(seconds / Double(fetches.count))
                }
            }
            Self.removeDatabase(target)
            if place == "disk" {
                let spans = (0..<runs).map { _ in FetchSpanCost.seconds(perFetchOf: fetches.count * 10) }
                report.comparisons.append(Comparison(
                    name: "a fetch's span with no tracer bootstrapped (made at the tap, ended)", subject: "fetch-history",
                    subjectMedian: Samples(values: spans).median, baseline: "recording the fetch (disk)",
                    baselineMedian: samples[.store]!.median, unit: .nanosecondsPerFetch,
                    target: .timeRatioAtMost(0.01, stated: "≤ 1% of recording"), repetitions: runs
                ))
            }
            report.comparisons.append(Comparison(
                name: "record a fetch, \(place) (start + end: 2 transactions)", subject: "fetch-history",
                subjectMedian: samples[.store]!.median, baseline: "raw C loop", baselineMedian: samples[.raw]!.median,
                unit: .microsecondsPerFetch, target: .timeRatioAtMost(1.2, stated: "≤ 1.2×"), repetitions: runs
            ))
            report.comparisons.append(Comparison(
                name: "record a fetch, \(place) (start + end: 2 transactions)", subject: "fetch-history",
                subjectMedian: samples[.store]!.median, baseline: "GRDB 7.10", baselineMedian: samples[.grdb]!.median,
                unit: .microsecondsPerFetch, target: .timeRatioAtMost(1, stated: "faster than GRDB"), repetitions: runs
            ))
        }
    }

    // MARK: - Equivalence

    /// Proves the sqlite3 queries do the same work: same export records,
    /// same newest ids, same counts and percentiles.
    private func checkEquivalence(on db: String) throws {
        log("checking that the sqlite3 queries give fetch-history's answers")
        let ours = "\(work)/check-ours.out", theirs = "\(work)/check-theirs.out"
        defer {
            try? FileManager.default.removeItem(atPath: ours)
            try? FileManager.default.removeItem(atPath: theirs)
        }

        try ChildProcess([cli, "export", "--format", "jsonl", "-d", db], output: ours).run()
        try ChildProcess(["sqlite3", "-readonly", "-batch", "-json", db, ReferenceQueries.export], output: theirs).run()
        let exported = try String(contentsOfFile: ours, encoding: .utf8).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! NSDictionary
        }
        let queried = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: theirs))) as! [NSDictionary]
        guard exported.count == queried.count, zip(exported, queried).allSatisfy({ $0.isEqual($1) }) else {
            let first = zip(exported, queried).first { !$0.isEqual($1) }
            throw BenchmarkError("sqlite3 -json differs from the export: \(String(describing: first))")
        }

        let range = listRange
        let lists: [([String], String)] = [
            ([], ReferenceQueries.listNewest), (["--outcome", "failed"], ReferenceQueries.listFailed),
            (
                ["--since", range.since.iso8601, "--until", range.until.iso8601],
                ReferenceQueries.listRange(since: range.since.millisecondsSince1970, until: range.until.millisecondsSince1970)
            ),
        ]
        for (arguments, sql) in lists {
            try ChildProcess([cli, "list", "-d", db] + arguments, output: ours).run()
            try ChildProcess(["sqlite3", "-readonly", "-batch", db, sql], output: theirs).run()
            let listed = try String(contentsOfFile: ours, encoding: .utf8).split(separator: "\n").dropFirst().map { $0.prefix(8) }
            let selected = try String(contentsOfFile: theirs, encoding: .utf8).split(separator: "\n").map { $0.prefix(8) }
            guard listed == selected, listed.count == 20 else {
                throw BenchmarkError("list \(arguments) and sqlite3 disagree: \(listed) vs \(selected)")
            }
        }

        try ChildProcess([cli, "stats", "--format", "json", "-d", db], output: ours).run()
        try ChildProcess(["sqlite3", "-readonly", "-batch", db, ReferenceQueries.stats], output: theirs).run()
        let stats = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: ours))) as! [String: Any]
        let counts = stats["counts"] as! [String: Int]
        let latency = stats["latencyMs"] as! [String: Int]
        var expected = counts.filter { $0.value > 0 }.map { "\($0.key)|\($0.value)" }
        expected.append("\(latency["p50"]!)|\(latency["p90"]!)|\(latency["p99"]!)|\(latency["max"]!)")
        let lines = try String(contentsOfFile: theirs, encoding: .utf8).split(separator: "\n").map(String.init)
        guard Set(lines) == Set(expected) else {
            throw BenchmarkError("stats and sqlite3 disagree: \(expected.sorted()) vs \(lines.sorted())")
        }
    }

    /// `/proc/loadavg`'s first three figures.
    static func loadAverage() -> String {
        let text = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "? ? ?"
        return text.split(separator: " ").prefix(3).joined(separator: " ")
    }

    static func removeDatabase(_ path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

/// Progress, on standard error so standard output is only the report.
func log(_ message: String) {
    FileHandle.standardError.write(Data("[bench] \(message)\n".utf8))
}

extension Array {
    /// The elements starting at `offset`, wrapping round: lets rounds change
    /// which engine goes first.
    func rotated(by offset: Int) -> [Element] {
        guard !isEmpty else { return self }
        let start = offset % count
        return Array(self[start...] + self[..<start])
    }
}
