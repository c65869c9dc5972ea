import Foundation
import Testing

/// The benchmark figures are the benchmark's own output: each report sits in
/// `Benchmarks/README.md` between the markers `Benchmarks/run.sh` rewrites
/// and names the build it measured; the scale curve's picture is the SVG it
/// drew, beside that page, one line per command it reports; and the front
/// page's summary is rows of the run's report, copied as they are.
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

    @Test(arguments: [("run", "Benchmarks/README.md"), ("curve", "Benchmarks/README.md"), ("summary", "README.md")])
    func eachReportIsBetweenItsMarkersAndNamesTheBuildItMeasured(_ section: String, _ page: String) throws {
        let report = try Self.report(section, in: page)
        #expect(report.contains("- fetch-history "), "\(section): no build named")
        #expect(report.contains("built with `swift build -c release --static-swift-stdlib`"), "\(section)")
        #expect(report.contains("| Met |") || report.contains("| Met |\n"), "\(section): no table with verdicts")
    }

    @Test func theFrontPagesSummaryIsLinesOfTheRunsReport() throws {
        // Given the front page's summary and the run's whole report
        let summary = try Self.report("summary", in: "README.md")
        let run = Set(try Self.report("run", in: "Benchmarks/README.md").split(separator: "\n"))

        // Then every line of the summary is a line of the report, as the report has it,
        // and the summary has a table of results under the report's own header
        let lines = summary.split(separator: "\n")
        for line in lines { #expect(run.contains(line), "not a line of the run's report: \(line)") }
        let rows = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Benchmark |") }
        #expect(lines.contains { $0.hasPrefix("| Benchmark |") })
        #expect(rows.count >= 4, "\(rows)")
        #expect(rows.count < run.count { $0.hasPrefix("| ") }, "the summary is the whole table")
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
