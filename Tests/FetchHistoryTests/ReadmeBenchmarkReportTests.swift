import Foundation
import Testing

/// The benchmark figures are the benchmark's own output: each report sits in
/// `Benchmarks/README.md` between the markers `Benchmarks/run.sh` rewrites
/// and names the build it measured; the scale curve's picture is the SVG it
/// drew, beside that page, one line per command it reports; and the front
/// page's summary is rows of the reports, copied as they are, each with the
/// build its report measured.
@Suite struct ReadmeBenchmarkReportTests {
    static func report(_ section: String, in page: String) throws -> String {
        let text = try Docs.text(page)
        let begin = "<!-- benchmark report: \(section) (written by Benchmarks/run.sh; edits are overwritten) -->"
        let end = "<!-- end of benchmark report: \(section) -->"
        let start = try #require(text.range(of: begin), "\(page) has no start marker for \(section)")
        let stop = try #require(text.range(of: end), "\(page) has no end marker for \(section)")
        try #require(start.upperBound < stop.lowerBound)
        return String(text[start.upperBound..<stop.lowerBound])
    }

    @Test(arguments: [
        ("run", "Benchmarks/README.md"), ("imports", "Benchmarks/README.md"), ("answers", "Benchmarks/README.md"),
        ("http", "Benchmarks/README.md"), ("curve", "Benchmarks/README.md"),
    ])
    func eachReportIsBetweenItsMarkersAndNamesTheBuildItMeasured(_ section: String, _ page: String) throws {
        let report = try Self.report(section, in: page)
        #expect(report.contains("- fetch-history "), "\(section): no build named")
        #expect(report.contains("built with `swift build -c release --static-swift-stdlib`"), "\(section)")
        #expect(report.contains("| Met |") || report.contains("| Met |\n"), "\(section): no table with verdicts")
    }

    @Test func theFrontPagesSummaryIsRowsOfTheReportsEachNamingTheBuildItMeasured() throws {
        // Given the front page's summary and the reports of the suite, the imports, the answers and the HTTP source
        let summary = try Self.report("summary", in: "README.md")
        let reports = try ["run", "imports", "answers", "http"].map { section in
            let lines = try Self.report(section, in: "Benchmarks/README.md").split(separator: "\n")
            let named = try #require(lines.first { $0.hasPrefix("- fetch-history ") }, "\(section): no build named")
            return (build: String(named.dropFirst("- fetch-history ".count).prefix { $0 != "," }), lines: Set(lines))
        }

        // Then each of its rows, its Build cell taken out, is a row of the report that measured that build, as
        // that report has it
        let lines = summary.split(separator: "\n")
        let rows = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Benchmark |") }
        for row in rows {
            var cells = row.split(separator: "|", omittingEmptySubsequences: false)
            let build = cells.remove(at: 2).trimmingCharacters(in: .whitespaces)
            let asReported = cells.joined(separator: "|")
            #expect(reports.contains { $0.build == build && $0.lines.contains(Substring(asReported)) }, "not a row of \(build)'s report: \(row)")
        }
        #expect(rows.count >= 4, "\(rows)")
        #expect(rows.count < reports.reduce(0) { $0 + $1.lines.count { $0.hasPrefix("| ") } }, "the summary is the whole tables")

        // And around them, the reports' machine, build command, legend and header, with the Build column
        #expect(lines.contains { $0.hasPrefix("- CPU: ") && reports[0].lines.contains($0) })
        #expect(lines.contains { $0.contains("built with `swift build -c release --static-swift-stdlib`") })
        #expect(lines.contains { $0.hasPrefix("Medians of N runs") && reports[0].lines.contains($0) })
        #expect(lines.filter { $0.hasPrefix("| Benchmark |") } == ["| Benchmark | Build | fetch-history | Baseline | Baseline median | Ratio | Target | Met | N |"])
    }

    @Test func theCurvesPictureIsTheSVGBesideItsPageWithALinePerCommand() throws {
        let report = try Self.report("curve", in: "Benchmarks/README.md")
        #expect(report.contains("](scale-curve.svg)"), "the curve's report does not show scale-curve.svg")
        let svg = try Docs.text("Benchmarks/scale-curve.svg")
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // One row of the report's table per command, and two lines (ours, the baseline) for each in the picture.
        let commands = report.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Command") }
        #expect(!commands.isEmpty)
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2 * commands.count, "\(commands.count) commands")
    }
}
