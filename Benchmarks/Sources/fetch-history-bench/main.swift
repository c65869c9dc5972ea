@_spi(Benchmarks) import FetchHistory
import Foundation

let usage = """
    usage: fetch-history-bench run --cli PATH [--previous-cli PATH] [--size N] [--work DIR] [--record-count N] [--repetition-scale X]
           fetch-history-bench imports --cli PATH [--previous-cli PATH] [--sizes N,N,…] [--work DIR] [--readme FILE] [--repetition-scale X]
           fetch-history-bench answers --cli PATH [--previous-cli PATH] [--size N] [--work DIR] [--repetition-scale X]
           fetch-history-bench curve --cli PATH [--sizes N,N,…] [--work DIR] [--svg FILE] [--repetition-scale X]
           fetch-history-bench summary --from Benchmarks/README.md --readme README.md
           fetch-history-bench http --cli PATH [--readme FILE] [--work DIR] [--repetition-scale X]
           fetch-history-bench binaries --cli PATH [--readme FILE] [--front-page FILE] [--repetition-scale X]
           fetch-history-bench generate --count N --output FILE
           fetch-history-bench record --engine store|raw|grdb --count N --db FILE
           fetch-history-bench span --count N --db FILE
           fetch-history-bench import --engine store|raw|grdb --count N --db FILE

      run        the whole suite at N fetches (default 1,000,000); prints a Markdown report
      imports    only `fetch-history import` against SQLite's own bulk load, into an empty and a full database,
                 at each size (default 1M, 10M; --size N for one), and `pull` of the first size into a new file
      answers    only stats, stats --by problem and report, and report against --previous-cli's
      curve      every command at each size (default 10k, 100k, 1M, 10M) beside sqlite3; draws the SVG (--svg)
      http       only the HTTP source: 100 fetches against curl and SQLite recording them, CPU while waiting
      binaries   the three programs' sizes, start-up (`--version`) against sqlite3's, and the libraries they load;
                 with --front-page, a table of both into the front page too
      --readme   the Markdown file to write the report into, between its markers for this subcommand
      summary    copies the front page's rows of the run's, the imports', the answers' and the HTTP reports (--from)
                 into --readme, between its summary markers: after any of them, or after changing which
                 rows it shows
      --previous-cli  an earlier fetch-history build whose imports (and reports) run in the same rounds
      generate   writes N generated fetches as export records (JSONL)
      record     records N fetches with one engine into a new database (for profiling)
      span       a fetch's span with no tracer (N × 10 spans) beside recording N fetches (store), per fetch
      import     imports N generated fetches with one engine into a new database (for profiling)
    """

/// `--name value` pairs after the subcommand.
func options(_ arguments: ArraySlice<String>) throws -> [String: String] {
    var options: [String: String] = [:]
    var remaining = arguments[...]
    while let name = remaining.popFirst() {
        guard name.hasPrefix("--"), let value = remaining.popFirst() else { throw BenchmarkError(usage) }
        options[String(name.dropFirst(2))] = value
    }
    return options
}

func integer(_ options: [String: String], _ name: String, default value: Int? = nil) throws -> Int {
    guard let text = options[name] ?? value.map(String.init), let number = Int(text.replacingOccurrences(of: "_", with: "")), number > 0
    else { throw BenchmarkError("--\(name) needs a positive whole number\n\(usage)") }
    return number
}

func required(_ options: [String: String], _ name: String) throws -> String {
    guard let value = options[name] else { throw BenchmarkError("--\(name) is required\n\(usage)") }
    return value
}

/// The sizes of `--sizes`, smallest first.
func sizeList(_ text: String) throws -> [Int] {
    try text.split(separator: ",").map { text in
        guard let size = Int(text.replacingOccurrences(of: "_", with: "")), size > 0 else {
            throw BenchmarkError("--sizes needs positive whole numbers separated by commas\n\(usage)")
        }
        return size
    }.sorted()
}

/// Prints `report`, and writes it into its section of a Markdown file when asked.
func publish(_ report: Report, section: String, readme: String?) throws {
    let markdown = report.markdown()
    print(markdown, terminator: "")
    if let readme { try Readme.write(markdown, section: section, into: readme) }
}

/// A suite for the benchmarks that time whole programs on no history of
/// their own (`http`, `binaries`): only `--cli`, `--work` and the scale count.
func processSuite(_ given: [String: String]) throws -> Suite {
    Suite(
        size: 1, cli: try required(given, "cli"),
        work: given["work"] ?? NSTemporaryDirectory() + "fetch-history-bench", recordCount: 1,
        repetitionScale: Double(given["repetition-scale"] ?? "1") ?? 1
    )
}

/// A new database at `path` with the project's schema, nothing else.
func freshDatabase(_ path: String) throws {
    Suite.removeDatabase(path)
    _ = try HistoryStore(path: path, access: .create)
}

do {
    let arguments = CommandLine.arguments.dropFirst()
    guard let command = arguments.first else { throw BenchmarkError(usage) }
    let given = try options(arguments.dropFirst())
    switch command {
    case "imports":
        let sizes = try given["size"].map { _ in [try integer(given, "size")] }
            ?? sizeList(given["sizes"] ?? "1000000,10000000")
        var report: Report?
        for size in sizes {
            var suite = Suite(
                size: size, cli: try required(given, "cli"),
                work: given["work"] ?? NSTemporaryDirectory() + "fetch-history-bench", recordCount: 1,
                repetitionScale: Double(given["repetition-scale"] ?? "1") ?? 1, previousCLI: given["previous-cli"]
            )
            let sized = try suite.runImports(withPull: size == sizes.first)
            if report == nil {
                report = sized
                report?.title = "fetch-history benchmarks — import and pull at SQLite's copy speed"
            } else {
                report?.comparisons += sized.comparisons
                report?.absolute += sized.absolute
                report?.notes += sized.notes
            }
        }
        try publish(report!, section: command, readme: given["readme"])

    case "run", "answers":
        var suite = Suite(
            size: try integer(given, "size", default: 1_000_000),
            cli: try required(given, "cli"),
            work: given["work"] ?? NSTemporaryDirectory() + "fetch-history-bench",
            recordCount: try integer(given, "record-count", default: 20_000),
            repetitionScale: Double(given["repetition-scale"] ?? "1") ?? 1,
            previousCLI: given["previous-cli"]
        )
        let report = command == "answers" ? try suite.runAnswers() : try suite.run()
        try publish(report, section: command, readme: given["readme"])

    case "curve":
        let sizes = try sizeList(given["sizes"] ?? "10000,100000,1000000,10000000")
        let svg = given["svg"] ?? NSTemporaryDirectory() + "scale-curve.svg"
        let suite = Suite(
            size: sizes.last!, cli: try required(given, "cli"),
            work: given["work"] ?? NSTemporaryDirectory() + "fetch-history-bench", recordCount: 1,
            repetitionScale: Double(given["repetition-scale"] ?? "1") ?? 1
        )
        try FileManager.default.createDirectory(atPath: suite.work, withIntermediateDirectories: true)
        var curve = ScaleCurve(suite: suite, sizes: sizes)
        try curve.run()
        var report = curve.suite.report
        report.title = "How each command's cost grows with the history"
        report.scaleChart = URL(fileURLWithPath: svg).lastPathComponent
        report.notes.append("Load average (1, 5, 15 min) at the end: \(Suite.loadAverage()).")
        try ScaleChart.svg(report.scale).write(toFile: svg, atomically: true, encoding: .utf8)
        try publish(report, section: command, readme: given["readme"])

    case "summary":
        let from = try required(given, "from")
        var reports: [String: String] = [:]
        for section in Readme.summarySections { reports[section] = try Readme.read(section: section, from: from) }
        try Readme.write(try Readme.summary(of: reports), section: "summary", into: try required(given, "readme"))

    case "http":
        var http = HTTPBenchmark(suite: try processSuite(given))
        try http.run()
        var report = http.suite.report
        report.title = "fetch-history benchmarks — the HTTP source"
        try publish(report, section: command, readme: given["readme"])

    case "binaries":
        var binaries = BinariesBenchmark(suite: try processSuite(given))
        try binaries.run()
        var report = binaries.suite.report
        report.title = "The three programs: size, start-up and what they load"
        try publish(report, section: command, readme: given["readme"])
        if let frontPage = given["front-page"] { try Readme.write(binaries.frontPage(), section: command, into: frontPage) }

    case "generate":
        try HistoryGenerator(count: try integer(given, "count")).writeJSONLines(to: try required(given, "output"))

    case "record":
        guard let engine = RecordingEngine(rawValue: try required(given, "engine")) else { throw BenchmarkError(usage) }
        let path = try required(given, "db")
        let fetches = RecordedFetch.generated(count: try integer(given, "count"))
        try freshDatabase(path)
        let seconds = try engine.record(fetches, into: path)
        print(String(format: "%@: %.2f µs per fetch", engine.rawValue, seconds / Double(fetches.count) * 1e6))

    case "span":
        let path = try required(given, "db")
        let fetches = RecordedFetch.generated(count: try integer(given, "count"))
        try freshDatabase(path)
        let recording = try RecordingEngine.store.record(fetches, into: path) / Double(fetches.count)
        let span = FetchSpanCost.seconds(perFetchOf: fetches.count * 10)
        print(String(format: "no-op span: %.0f ns per fetch; recording: %.1f µs per fetch; %.3f%%", span * 1e9, recording * 1e6, span / recording * 100))

    case "import":
        guard let engine = ImportEngine(rawValue: try required(given, "engine")) else { throw BenchmarkError(usage) }
        let path = try required(given, "db")
        let fetches = Array(HistoryGenerator(count: try integer(given, "count")))
        try freshDatabase(path)
        let (seconds, added) = try engine.importFetches(fetches, into: path)
        print(String(format: "%@: %d fetches in %.3f s", engine.rawValue, added, seconds))

    default:
        throw BenchmarkError(usage)
    }
} catch {
    FileHandle.standardError.write(Data("error: \(error)\n".utf8))
    exit(1)
}
