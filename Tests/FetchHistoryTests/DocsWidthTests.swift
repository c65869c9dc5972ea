import Foundation
import Testing

/// README.md is a front page a newcomer reads in five minutes, and the pages
/// users read keep their prose to a width an editor and a diff show whole.
///
/// Exceptions, where a line may be wider than 100 columns:
/// - inside fenced code blocks: a transcript shows what the tool prints
///   (`ReadmeExampleTests` compares it byte for byte), and a command is one
///   line to paste;
/// - between the markers `Benchmarks/run.sh` writes
///   (`<!-- benchmark report: … -->` … `<!-- end of benchmark report: … -->`):
///   its tables are the benchmark's output, never edited by hand.
/// Tables and links written by hand get no exception.
@Suite struct DocsWidthTests {
    static let maximumReadmeLines = 200
    static let maximumColumns = 100

    @Test func theFrontPageIsAtMost200Lines() throws {
        let text = try Docs.text("README.md")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let count = text.hasSuffix("\n") ? lines.count - 1 : lines.count
        #expect(count <= Self.maximumReadmeLines, "README.md has \(count) lines")
        #expect(count >= 50, "README.md has \(count) lines: is it all there?")
    }

    /// The page's lines wider than the limit that no exception covers, as
    /// `page:line: text`.
    static func wideLines(of page: String) throws -> [String] {
        var generated = false
        var wide: [String] = []
        for (number, line) in Docs.lines(of: try Docs.text(page)).enumerated() {
            if line.text.hasPrefix("<!-- benchmark report: ") { generated = true }
            if line.text.hasPrefix("<!-- end of benchmark report: ") { generated = false }
            if !line.inCode, !generated, line.text.count > maximumColumns {
                wide.append("\(page):\(number + 1): \(line.text.count) columns: \(line.text)")
            }
        }
        return wide
    }

    @Test(arguments: try Docs.pages())
    func noLineOfProseIsWiderThan100Columns(_ page: String) throws {
        let wide = try Self.wideLines(of: page)
        #expect(wide.isEmpty, "\(wide.joined(separator: "\n"))")
    }

    @Test func aWideLineOfProseIsFoundAndCodeIsLeftAlone() {
        // Given a page with a wide line of prose, and a wider one in a code block
        let text = "# Page\n\n" + String(repeating: "word ", count: 30) + "\n\n```\n" + String(repeating: "x", count: 200) + "\n```\n"
        let lines = Docs.lines(of: text)

        // Then only the prose is too wide
        let wide = lines.filter { !$0.inCode && $0.text.count > Self.maximumColumns }
        #expect(wide.count == 1)
        #expect(lines.contains { $0.inCode && $0.text.count == 200 })
    }
}
