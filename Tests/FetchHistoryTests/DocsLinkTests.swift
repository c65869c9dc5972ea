import Foundation
import Testing

/// Every relative link of the documentation leads somewhere: in README.md,
/// `docs/*.md`, CONTRIBUTING.md, `Benchmarks/README.md` and
/// `Migrations/README.md`, each `[text](target)` and `![alt](target)` outside
/// code names a file or folder that exists, and a `#anchor` names a heading
/// of the page it points into, by GitHub's rules for a heading's anchor.
/// Links to other sites (`https://…`) are left to the reader.
@Suite struct DocsLinkTests {
    struct Link: CustomStringConvertible, Sendable {
        /// The page the link is on, from the package's root.
        var page: String
        var target: String
        var description: String { "\(page): (\(target))" }
    }

    /// The page's inline links and images, outside fenced code blocks,
    /// inline code and HTML comments; link text may run over lines.
    static func links(in page: String) throws -> [Link] {
        var prose = Docs.lines(of: try Docs.text(page)).map { $0.inCode ? "" : $0.text }.joined(separator: "\n")
        prose = prose.replacing(/<!--.*?-->/.dotMatchesNewlines(), with: "")
        prose = prose.replacing(/`[^`]*`/, with: "")
        return prose.matches(of: /\[[^\]]*\]\(([^)\s]*)\)/).map { Link(page: page, target: String($0.output.1)) }
    }

    static func allLinks() throws -> [Link] {
        try Docs.linkedPages().flatMap(links(in:))
    }

    /// The anchor GitHub gives a heading: lower-cased, every character but
    /// letters, digits, `_`, `-` and spaces dropped, each space made a `-`.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.compactMap { scalar -> Character? in
            if scalar == " " { return "-" }
            if scalar == "-" || scalar == "_" { return Character(scalar) }
            switch scalar.properties.generalCategory {
            case .lowercaseLetter, .uppercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .decimalNumber, .letterNumber, .otherNumber, .nonspacingMark, .spacingMark, .enclosingMark:
                return Character(scalar)
            default:
                return nil
            }
        })
    }

    /// The anchors of a page's headings, outside code; a heading's second
    /// occurrence gets `-1`, its third `-2`, as on GitHub.
    static func anchors(of page: String) throws -> Set<String> {
        var seen: [String: Int] = [:]
        var anchors: Set<String> = []
        for line in Docs.lines(of: try Docs.text(page)) where !line.inCode {
            guard let heading = line.text.firstMatch(of: /^#{1,6} +(.+?) *#* *$/) else { continue }
            let base = anchor(String(heading.output.1))
            let count = seen[base, default: 0]
            seen[base] = count + 1
            anchors.insert(count == 0 ? base : "\(base)-\(count)")
        }
        return anchors
    }

    /// `path`, relative to the page's folder, as a path from the root; the
    /// page itself when `path` is empty; nil when it leads outside.
    static func resolve(_ path: String, from page: String) -> String? {
        guard !path.isEmpty else { return page }
        var components = page.split(separator: "/").dropLast().map(String.init)
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                guard components.popLast() != nil else { return nil }
            } else {
                components.append(String(part))
            }
        }
        return components.joined(separator: "/")
    }

    @Test func anchorsAreMadeAsGitHubMakesThem() {
        #expect(Self.anchor("JUnit and HAR, for CI and HTTP tools") == "junit-and-har-for-ci-and-http-tools")
        #expect(Self.anchor("Searching: `--grep` and `--source`") == "searching---grep-and---source")
        #expect(Self.anchor("The team history's schema") == "the-team-historys-schema")
        #expect(Self.anchor("fetch-history benchmarks — 1,000,000 fetches") == "fetch-history-benchmarks--1000000-fetches")
        #expect(Self.anchor("Testing your view states: FetchHistoryTesting") == "testing-your-view-states-fetchhistorytesting")
    }

    @Test func theDocsHaveLinksToCheck() throws {
        let links = try Self.allLinks()
        #expect(links.count >= 50, "\(links.count) links")
        #expect(links.contains { $0.target.contains("#") }, "no link to a heading")
        for page in try Docs.linkedPages() { #expect(try !Self.anchors(of: page).isEmpty, "\(page) has no heading") }
    }

    @Test(arguments: try allLinks().filter { !$0.target.contains("://") && !$0.target.hasPrefix("mailto:") })
    func eachRelativeLinkLeadsToAFileAndAHeadingThatExist(_ link: Link) throws {
        let parts = link.target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        let path = parts[0].removingPercentEncoding ?? parts[0]
        #expect(!path.hasPrefix("/"), "\(link): a path from the root of the site, not relative to the page")
        let target = try #require(Self.resolve(path, from: link.page), "\(link): outside the repository")
        var isFolder: ObjCBool = false
        let exists = FileManager.default.fileExists(atPath: Docs.root.appending(path: target).path, isDirectory: &isFolder)
        try #require(exists, "\(link): no file \(target)")
        if parts.count == 2 {
            #expect(target.hasSuffix(".md") && !isFolder.boolValue, "\(link): an anchor into what is not a Markdown page")
            guard target.hasSuffix(".md") else { return }
            let anchors = try Self.anchors(of: target)
            #expect(anchors.contains(parts[1]), "\(link): \(target) has no heading #\(parts[1]); it has \(anchors.sorted())")
        }
    }
}
