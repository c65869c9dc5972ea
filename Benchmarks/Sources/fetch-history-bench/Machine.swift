import Foundation

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
