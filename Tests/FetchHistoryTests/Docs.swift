import Foundation

/// The repository's Markdown, as the documentation's tests read it: the
/// front page (`README.md`), the guides in `docs/`, and the pages beside the
/// code they describe.
enum Docs {
    /// The package's root folder.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The front page and every page of `docs/`, as paths from the root: the
    /// pages users read, whose examples run and whose prose keeps its width.
    static func pages() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// Every page whose links must lead somewhere: the pages, and those for
    /// contributors.
    static func linkedPages() throws -> [String] {
        try pages() + ["CONTRIBUTING.md", "Benchmarks/README.md", "Migrations/README.md"]
    }

    /// The text of the file at `path`, from the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    /// The page's lines, each with whether it is inside a fenced code block
    /// (its fences count as inside; a fence may be indented, in a list).
    static func lines(of text: String) -> [(text: String, inCode: Bool)] {
        var inside = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let line = String(line)
            if line.drop(while: { $0 == " " }).hasPrefix("```") {
                inside.toggle()
                return (line, true)
            }
            return (line, inside)
        }
    }
}
