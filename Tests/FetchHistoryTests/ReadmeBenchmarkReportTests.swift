import Foundation
import Testing

/// README's benchmark figures are the benchmark's own output: each report
/// sits between the markers `Benchmarks/run.sh` rewrites, names the build
/// it measured, and the scale curve's picture is the SVG it drew, beside
/// README, one line per command it reports.
@Suite struct ReadmeBenchmarkReportTests {
    static let root = ReadmeSnippetTests.root

    static func report(_ section: String) throws -> String {
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        let begin = "<!-- benchmark report: \(section) (written by Benchmarks/run.sh; edits are overwritten) -->"
        let end = "<!-- end of benchmark report: \(section) -->"
        let start = try #require(readme.range(of: begin), "README has no start marker for \(section)")
        let stop = try #require(readme.range(of: end), "README has no end marker for \(section)")
        try #require(start.upperBound < stop.lowerBound)
        return String(readme[start.upperBound..<stop.lowerBound])
    }

    @Test(arguments: ["run", "curve"])
    func eachReportIsBetweenItsMarkersAndNamesTheBuildItMeasured(_ section: String) throws {
        let report = try Self.report(section)
        #expect(report.contains("- fetch-history "), "\(section): no build named")
        #expect(report.contains("built with `swift build -c release --static-swift-stdlib`"), "\(section)")
        #expect(report.contains("| Met |") || report.contains("| Met |\n"), "\(section): no table with verdicts")
    }

    @Test func theCurvesPictureIsTheSVGBesideREADMEWithALinePerCommand() throws {
        let report = try Self.report("curve")
        #expect(report.contains("](scale-curve.svg)"), "the curve's report does not show scale-curve.svg")
        let svg = try String(contentsOf: Self.root.appending(path: "scale-curve.svg"), encoding: .utf8)
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        // One row of the report's table per command, and two lines (ours, the baseline) for each in the picture.
        let commands = report.split(separator: "\n").filter { $0.hasPrefix("| ") && !$0.hasPrefix("| Command") }
        #expect(!commands.isEmpty)
        #expect(svg.components(separatedBy: "<polyline").count - 1 == 2 * commands.count, "\(commands.count) commands")
    }
}
