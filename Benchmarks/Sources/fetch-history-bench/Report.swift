import Foundation

/// A failure that stops the suite, said in one sentence.
struct BenchmarkError: Error, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}

/// Repeated measurements of one thing.
struct Samples {
    var values: [Double] = []

    var median: Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    mutating func append(_ value: Double) { values.append(value) }
}

/// fetch-history measured against a baseline in the same run, and the
/// target the ratio is held to.
struct Comparison {
    enum Target {
        /// fetch-history's time ÷ the baseline's must be at most this.
        case timeRatioAtMost(Double, stated: String)
        /// Informational: no target.
        case none
    }

    var name: String
    var subject: String
    var subjectMedian: Double
    var baseline: String
    var baselineMedian: Double
    /// How the medians are shown: `ms`, `s` or `µs/fetch`.
    var unit: Unit
    var target: Target
    var repetitions: Int

    enum Unit {
        case milliseconds, seconds, microsecondsPerFetch, nanosecondsPerFetch
        /// The values are already MiB, not seconds.
        case mebibytes
        /// The values are counts of instructions (callgrind's `Ir`).
        case instructions

        func format(_ value: Double) -> String {
            switch self {
            case .milliseconds: String(format: "%.1f ms", value * 1e3)
            case .seconds: String(format: "%.3f s", value)
            case .microsecondsPerFetch: String(format: "%.1f µs/fetch", value * 1e6)
            case .nanosecondsPerFetch: String(format: "%.0f ns/fetch", value * 1e9)
            case .mebibytes: String(format: "%.1f MiB", value)
            case .instructions: String(format: "%.3f G instr.", value / 1e9)
            }
        }
    }

    var ratio: Double { subjectMedian / baselineMedian }

    var isMet: Bool? {
        switch target {
        case .timeRatioAtMost(let limit, _): ratio <= limit
        case .none: nil
        }
    }

    var targetText: String {
        switch target {
        case .timeRatioAtMost(let limit, let stated): "\(stated) (≤ \(String(format: "%.2f", limit)))"
        case .none: "-"
        }
    }
}

/// Peak memory of one export.
struct MemoryRow {
    var size: Int
    var exportMedian: Double
    var exportPeakKiB: Int
    var sqlitePeakKiB: Int
}

/// One command of the scale curve at one size (`ScaleCurve`).
struct ScaleRow {
    var command: String
    var baseline: String
    var size: Int
    var ours: Double
    var sqlite: Double
}

/// The suite's results as Markdown.
struct Report {
    var size: Int
    /// The report's first line; by default, the size it ran at.
    var title: String?
    /// The machine and build it ran on (`Machine.describe`).
    var machine = ""
    var comparisons: [Comparison] = []
    var memory: [MemoryRow] = []
    var scale: [ScaleRow] = []
    /// Per command of the scale curve: how it grows, and whether that keeps its promise.
    var scaleVerdicts: [(command: String, text: String, isMet: Bool)] = []
    /// Where the scale curve's SVG is, relative to the Markdown.
    var scaleChart = "scale-curve.svg"
    /// Other figures worth seeing, without a baseline.
    var absolute: [(name: String, value: String)] = []
    var notes: [String] = []

    func markdown() -> String {
        var lines: [String] = []
        lines.append("### " + (title ?? "fetch-history benchmarks — \(size.formatted) fetches"))
        lines.append("")
        if !machine.isEmpty {
            lines.append(machine)
            lines.append("")
        }
        if !comparisons.isEmpty {
            lines.append("Medians of N runs; ratio = fetch-history's median ÷ the baseline's (below 1: fetch-history is faster).")
            lines.append("")
            lines.append("| Benchmark | fetch-history | Baseline | Baseline median | Ratio | Target | Met | N |")
            lines.append("|---|---:|---|---:|---:|---|:-:|--:|")
        }
        for row in comparisons {
            let met = row.isMet.map { $0 ? "yes" : "**NO**" } ?? "-"
            lines.append(
                "| \(row.name) | \(row.unit.format(row.subjectMedian)) | \(row.baseline) | "
                    + "\(row.unit.format(row.baselineMedian)) | \(String(format: "%.2f", row.ratio)) | "
                    + "\(row.targetText) | \(met) | \(row.repetitions) |"
            )
        }
        if !memory.isEmpty {
            lines.append("")
            lines.append("| Export size | `export --format jsonl` median | fetch-history peak RSS | `sqlite3 -json` peak RSS |")
            lines.append("|--:|--:|--:|--:|")
            for row in memory {
                lines.append(
                    "| \(row.size.formatted) | \(String(format: "%.3f s", row.exportMedian)) | "
                        + "\(Self.mebibytes(row.exportPeakKiB)) | \(Self.mebibytes(row.sqlitePeakKiB)) |"
                )
            }
        }
        if !scale.isEmpty {
            let sizes = Array(Set(scale.map(\.size))).sorted()
            lines.append("")
            lines.append("![Time against history size, log–log: fetch-history solid, its baseline dashed](\(scaleChart))")
            lines.append("")
            lines.append("Each cell: fetch-history / the baseline doing the same work on the same data (sqlite3 on the same file; psql on the same server for the team history), medians.")
            lines.append("")
            lines.append("| Command | Baseline does | " + sizes.map(\.formatted).joined(separator: " | ") + " | Growth | Met |")
            lines.append("|---|---|" + sizes.map { _ in "--:|" }.joined() + "---|:-:|")
            for verdict in scaleVerdicts {
                let rows = scale.filter { $0.command == verdict.command }
                let cells = sizes.map { size in
                    rows.first { $0.size == size }.map { "\(Self.time($0.ours)) / \(Self.time($0.sqlite))" } ?? "-"
                }
                lines.append(
                    "| \(verdict.command) | \(rows.first?.baseline ?? "") | " + cells.joined(separator: " | ")
                        + " | \(verdict.text) | \(verdict.isMet ? "yes" : "**NO**") |"
                )
            }
        }
        if !absolute.isEmpty {
            lines.append("")
            lines.append("| Also measured | Value |")
            lines.append("|---|--:|")
            for row in absolute {
                lines.append("| \(row.name) | \(row.value) |")
            }
        }
        if !notes.isEmpty {
            lines.append("")
            lines.append(contentsOf: notes.map { "- \($0)" })
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A duration, in the unit that reads best.
    static func time(_ seconds: Double) -> String {
        seconds < 1 ? String(format: "%.1f ms", seconds * 1e3) : String(format: "%.2f s", seconds)
    }

    static func mebibytes(_ kibibytes: Int) -> String {
        String(format: "%.1f MiB", Double(kibibytes) / 1024)
    }
}

extension Int {
    /// `1000000` as `1,000,000`.
    var formatted: String {
        let digits = Array(String(self))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return text
    }
}
