import Foundation
import Testing

/// The benchmark figures are the benchmark's own output: each report sits in
/// `Benchmarks/README.md` between the markers `Benchmarks/run.sh` rewrites
/// and names the build it measured; the scale curve's picture is the SVG it
/// drew, beside that page, one line per command it reports; and the front
/// page's summary is rows of the reports, copied as they are.
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
        ("http", "Benchmarks/README.md"), ("curve", "Benchmarks/README.md"), ("summary", "README.md"),
    ])
    func eachReportIsBetweenItsMarkersAndNamesTheBuildItMeasured(_ section: String, _ page: String) throws {
        let report = try Self.report(section, in: page)
        #expect(report.contains("- fetch-history "), "\(section): no build named")
        #expect(report.contains("built with `swift build -c release --static-swift-stdlib`"), "\(section)")
        #expect(report.contains("| Met |") || report.contains("| Met |\n"), "\(section): no table with verdicts")
    }

    @Test func theFrontPagesSummaryIsLinesOfTheReports() throws {
        // Given the front page's summary and the whole reports of the suite, the imports, the answers and the HTTP source
        let summary = try Self.report("summary", in: "README.md")
        let reports = try ["run", "imports", "answers", "http"].map { Set(try Self.report($0, in: "Benchmarks/README.md").split(separator: "\n")) }

        // Then every line of the summary is a line of a report, as the report has it,
        // and the summary has tables of results under the reports' own header, each under
        // the line naming the build it measured
        let lines = summary.split(separator: "\n")
        for line in lines { #expect(reports.contains { $0.contains(line) }, "not a line of a report: \(line)") }
        let rows = lines.filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Benchmark |") && !$0.hasPrefix("|---") }
        let tables = lines.indices.filter { lines[$0].hasPrefix("| Benchmark |") }
        #expect(!tables.isEmpty)
        for table in tables { #expect(lines[..<table].last { $0.hasPrefix("- fetch-history ") } != nil) }
        #expect(rows.count >= 4, "\(rows)")
        #expect(rows.count < reports.reduce(0) { $0 + $1.count { $0.hasPrefix("| ") } }, "the summary is the whole tables")
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
