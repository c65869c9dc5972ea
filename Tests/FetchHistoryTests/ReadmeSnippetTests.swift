import Foundation
import Testing

/// The documentation's Swift snippets (README.md and `docs/*.md`) are copied
/// from `Examples/`, a package that builds and passes its tests in CI: each
/// block after a `<!-- snippet: PATH -->` marker must appear, as is, in the
/// file at PATH.
@Suite struct ReadmeSnippetTests {
    struct Snippet: CustomStringConvertible {
        /// The page it is on, from the package's root.
        var page: String
        var path: String
        var code: String
        var description: String { "\(page): \(path)" }
    }

    static func snippets() throws -> [Snippet] {
        var snippets: [Snippet] = []
        for page in try Docs.pages() {
            var lines = try Docs.text(page).split(separator: "\n", omittingEmptySubsequences: false)[...]
            while let line = lines.popFirst() {
                guard line.hasPrefix("<!-- snippet: "), line.hasSuffix(" -->") else { continue }
                let path = String(line.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
                guard lines.popFirst() == "```swift" else {
                    snippets.append(Snippet(page: page, path: path, code: ""))
                    continue
                }
                var code: [Substring] = []
                while let codeLine = lines.popFirst(), codeLine != "```" { code.append(codeLine) }
                snippets.append(Snippet(page: page, path: path, code: code.joined(separator: "\n")))
            }
        }
        return snippets
    }

    @Test func theDocsHaveTheirSnippets() throws {
        let snippets = try Self.snippets()
        // The front page's example, the library's three and the kit's three.
        #expect(snippets.count >= 7, "\(snippets)")
        #expect(snippets.contains { $0.page == "README.md" }, "the front page has no snippet from Examples/")
        #expect(snippets.allSatisfy { $0.path.hasPrefix("Examples/") }, "\(snippets)")
    }

    @Test(arguments: try snippets())
    func eachSnippetIsCodeFromExamples(_ snippet: Snippet) throws {
        #expect(!snippet.code.isEmpty, "\(snippet.page): the marker for \(snippet.path) is not followed by a ```swift block")
        let source = try Docs.text(snippet.path)
        #expect(source.contains(snippet.code), "\(snippet.page)'s snippet is not in \(snippet.path):\n\(snippet.code)")
    }
}
