import Foundation

/// Writes a report into README between its markers: the benchmark figures
/// there are the benchmark's output, never typed in.
///
/// ```markdown
/// <!-- benchmark report: run (written by Benchmarks/run.sh; edits are overwritten) -->
/// …
/// <!-- end of benchmark report: run -->
/// ```
enum Readme {
    static func begin(_ section: String) -> String {
        "<!-- benchmark report: \(section) (written by Benchmarks/run.sh; edits are overwritten) -->"
    }

    static func end(_ section: String) -> String { "<!-- end of benchmark report: \(section) -->" }

    /// Replaces what is between the markers of `section` in the file at
    /// `path` with `markdown`; fails when the markers are not there.
    static func write(_ markdown: String, section: String, into path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        guard let start = text.range(of: begin(section)), let stop = text.range(of: end(section)),
              start.upperBound <= stop.lowerBound
        else { throw BenchmarkError("\(path) has no markers for the \(section) report: \(begin(section)) … \(end(section))") }
        let updated = text[..<start.upperBound] + "\n" + markdown + text[stop.lowerBound...]
        try String(updated).write(toFile: path, atomically: true, encoding: .utf8)
    }
}

/// The machine a report was measured on, for its first lines.
enum Machine {
    static func describe(work: String, revision: String?) -> String {
        let cpu = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("model name") }?.split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "?"
        let memory = (try? String(contentsOfFile: "/proc/meminfo", encoding: .utf8))?.split(separator: "\n")
            .first { $0.hasPrefix("MemTotal") }?.split(separator: " ").dropFirst().first.flatMap { Double($0) }
        return [
            "- CPU: \(cpu), \(ProcessInfo.processInfo.activeProcessorCount) cores; memory \(String(format: "%.0f", (memory ?? 0) / 1_048_576)) GiB",
            "- \(firstLine(["swift", "--version"], work: work)); sqlite3 \(firstLine(["sqlite3", "--version"], work: work).split(separator: " ").first ?? "?")",
            "- fetch-history \(revision ?? "(revision not given)"), built with `swift build -c release --static-swift-stdlib`",
            "- load average (1, 5, 15 min) at the start: \(Suite.loadAverage())",
        ].joined(separator: "\n")
    }

    private static func firstLine(_ command: [String], work: String) -> String {
        let output = "\(work)/machine.out"
        defer { try? FileManager.default.removeItem(atPath: output) }
        guard (try? ChildProcess(command, output: output).run()) != nil,
              let text = try? String(contentsOfFile: output, encoding: .utf8)
        else { return "?" }
        return text.split(separator: "\n").first.map(String.init) ?? "?"
    }
}
