import Foundation

/// Export in instructions, which do not depend on the machine's load:
/// `valgrind --tool=callgrind` counts what `export --format jsonl` and
/// `sqlite3 -json 'SELECT * FROM fetch'` execute on the same 100,000
/// fetches. Run when valgrind is installed (run.sh installs it).
struct InstructionBenchmark {
    var suite: Suite

    static var isAvailable: Bool {
        FileManager.default.isExecutableFile(atPath: "/usr/bin/valgrind")
    }

    mutating func run() throws {
        guard let size = suite.sizes.first(where: { $0 >= 100_000 }) else { return }
        let db = suite.database(size)
        log("export of \(size.formatted) in instructions (callgrind): fetch-history vs sqlite3 -json SELECT *")
        let ours = try instructions([suite.cli, "export", "--format", "jsonl", "-d", db])
        let theirs = try instructions(["sqlite3", "-readonly", "-batch", "-json", db, "SELECT * FROM fetch"])
        suite.report.comparisons.append(Comparison(
            name: "export --format jsonl of \(size.formatted), in instructions", subject: "fetch-history",
            subjectMedian: ours, baseline: "`sqlite3 -json 'SELECT * FROM fetch'`", baselineMedian: theirs,
            unit: .instructions, target: .timeRatioAtMost(0.5, stated: "≤ 0.5×"), repetitions: 1
        ))
    }

    /// The instructions `arguments` executes, output to /dev/null.
    private func instructions(_ arguments: [String]) throws -> Double {
        let report = "\(suite.work)/callgrind.err"
        defer { try? FileManager.default.removeItem(atPath: report) }
        let command = (["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + arguments)
            .map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(separator: " ")
        try ChildProcess(["/bin/sh", "-c", command + " > /dev/null 2> '\(report)'"]).run()
        let text = try String(contentsOfFile: report, encoding: .utf8)
        guard let line = text.split(separator: "\n").first(where: { $0.contains("Collected :") }),
              let count = line.split(separator: ":").last.flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) })
        else { throw BenchmarkError("no instruction count from callgrind: \(text.suffix(500))") }
        return count
    }
}
