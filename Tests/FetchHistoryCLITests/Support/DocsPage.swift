import Foundation

/// The documentation's pages, read by the tests that run what they show.
enum DocsPage {
    /// The package's root folder.
    static let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The front page and every page of `docs/`, as paths from the root.
    static func all() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appending(path: "docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        return ["README.md"] + docs
    }

    /// The text of the page at `path`, from the root.
    static func text(_ path: String) throws -> String {
        try String(contentsOf: root.appending(path: path), encoding: .utf8)
    }

    /// The body of the block fenced as `language` (```` ```sql ````) that
    /// follows the first line of `page` starting with `marker`.
    static func block(after marker: String, fenced language: String, in page: String) throws -> String {
        let lines = try text(page).components(separatedBy: "\n")
        guard let markerLine = lines.firstIndex(where: { $0.hasPrefix(marker) }),
              let start = lines[markerLine...].firstIndex(of: "```\(language)"),
              let end = lines[(start + 1)...].firstIndex(of: "```")
        else { throw SandboxError("\(page) has no \(language) block after \(marker)") }
        return lines[(start + 1)..<end].joined(separator: "\n")
    }
}
