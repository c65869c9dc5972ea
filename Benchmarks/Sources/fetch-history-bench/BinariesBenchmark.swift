import Foundation

/// The three programs the build makes, side by side: how big each is, how
/// long `--version` takes (a process started and ended, nothing else),
/// against `sqlite3 --version`, and what each loads when it starts.
///
/// `fetch-history` leaves the network out so it starts fast; its companions
/// link SwiftNIO, `fetch-history-http` with AsyncHTTPClient (not URLSession:
/// none may load libcurl), `fetch-history-postgres` with PostgreSQL's driver.
struct BinariesBenchmark {
    var suite: Suite
    /// One line of the front page's table per program.
    private(set) var programs: [(name: String, bytes: Int, start: Double, libraries: Int, curl: Bool)] = []
    /// `sqlite3 --version`'s median, beside the programs'.
    private(set) var sqliteStart = 0.0

    mutating func run() throws {
        let folder = URL(fileURLWithPath: suite.cli).deletingLastPathComponent().path
        for name in ["fetch-history", "fetch-history-http", "fetch-history-postgres"] {
            let path = "\(folder)/\(name)"
            log("binaries: \(name)")
            let version = try suite.alternate(
                ChildProcess([path, "--version"]), ChildProcess(["sqlite3", "--version"]), repetitions: suite.repetitions(31)
            )
            suite.report.comparisons.append(Comparison(
                name: "`\(name) --version`", subject: name, subjectMedian: version.subject.median,
                baseline: "`sqlite3 --version`", baselineMedian: version.baseline.median, unit: .milliseconds,
                target: .none, repetitions: version.subject.values.count
            ))
            let bytes = (try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
            let libraries = try Self.sharedLibraries(of: path)
            let curl = libraries.contains { $0.contains("libcurl") }
            let exported = try Self.exportedSwiftSymbols(of: path)
            suite.report.absolute.append((
                name: "`\(name)`: size; shared libraries it loads; Swift symbols it exports",
                value: String(
                    format: "%.1f MB; %d (%@); %d", Double(bytes) / 1e6, libraries.count, curl ? "loads libcurl" : "no libcurl", exported
                )
            ))
            programs.append((name, bytes, version.subject.median, libraries.count, curl))
            sqliteStart = version.baseline.median
        }
    }

    /// The front page's table: a line per program.
    func frontPage() -> String {
        var lines = [
            "| Program | Size | `--version` (`sqlite3 --version`: \(Report.time(sqliteStart))) | Shared libraries it loads |",
            "|---|--:|--:|---|",
        ]
        for program in programs {
            lines.append(
                "| `\(program.name)` | \(String(format: "%.1f MB", Double(program.bytes) / 1e6)) | \(Report.time(program.start)) | "
                    + "\(program.libraries)\(program.curl ? ", libcurl among them" : ", no libcurl") |"
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// How many Swift symbols `path` puts in its dynamic symbol table, which
    /// the Swift runtime walks at every start (`dladdr`): none, linked with
    /// `--no-export-dynamic` (Package.swift); 42,000 in fetch-history-http
    /// without it.
    static func exportedSwiftSymbols(of path: String) throws -> Int {
        let listing = NSTemporaryDirectory() + "fetch-history-bench-\(getpid()).nm"
        defer { try? FileManager.default.removeItem(atPath: listing) }
        try ChildProcess(["nm", "--dynamic", "--defined-only", path], output: listing).run()
        return try String(contentsOfFile: listing, encoding: .utf8).split(separator: "\n").count { $0.contains(" $s") }
    }

    /// The shared libraries the dynamic linker loads for `path`, as `ldd`
    /// lists them (the vDSO and the loader itself not counted).
    static func sharedLibraries(of path: String) throws -> [String] {
        let listing = NSTemporaryDirectory() + "fetch-history-bench-\(getpid()).ldd"
        defer { try? FileManager.default.removeItem(atPath: listing) }
        try ChildProcess(["ldd", path], output: listing).run()
        return try String(contentsOfFile: listing, encoding: .utf8)
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.contains("=>") }
    }
}
