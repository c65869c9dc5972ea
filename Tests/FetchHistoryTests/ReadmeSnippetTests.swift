import Foundation
import Testing

/// README's Swift snippets are copied from `Examples/`, a package that
/// builds and passes its tests in CI: each block after a
/// `<!-- snippet: PATH -->` marker must appear, as is, in the file at PATH.
@Suite struct ReadmeSnippetTests {
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Snippet: CustomStringConvertible {
        var path: String
        var code: String
        var description: String { path }
    }

    static func snippets() throws -> [Snippet] {
        let readme = try String(contentsOf: root.appending(path: "README.md"), encoding: .utf8)
        var snippets: [Snippet] = []
        var lines = readme.split(separator: "\n", omittingEmptySubsequences: false)[...]
        while let line = lines.popFirst() {
            guard line.hasPrefix("<!-- snippet: "), line.hasSuffix(" -->") else { continue }
            let path = String(line.dropFirst("<!-- snippet: ".count).dropLast(" -->".count))
            guard lines.popFirst() == "```swift" else {
                snippets.append(Snippet(path: path, code: ""))
                continue
            }
            var code: [Substring] = []
            while let codeLine = lines.popFirst(), codeLine != "```" { code.append(codeLine) }
            snippets.append(Snippet(path: path, code: code.joined(separator: "\n")))
        }
        return snippets
    }

    @Test func readmeHasItsSnippets() throws {
        let paths = try Self.snippets().map(\.path)
        #expect(paths.count >= 4, "\(paths)")
        #expect(paths.allSatisfy { $0.hasPrefix("Examples/") }, "\(paths)")
    }

    @Test(arguments: try snippets())
    func eachSnippetIsCodeFromExamples(_ snippet: Snippet) throws {
        #expect(!snippet.code.isEmpty, "the marker for \(snippet.path) is not followed by a ```swift block")
        let source = try String(contentsOf: Self.root.appending(path: snippet.path), encoding: .utf8)
        #expect(source.contains(snippet.code), "README's snippet is not in \(snippet.path):\n\(snippet.code)")
    }
}
