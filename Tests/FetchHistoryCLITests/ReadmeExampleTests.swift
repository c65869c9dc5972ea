import Foundation
import Testing

/// The documentation's terminal examples are what the tool prints: in
/// README.md and every page of `docs/`, every plain fenced block whose first
/// line starts with `$ ` is a transcript — commands after `$ `, each followed
/// by what it prints (standard output and error, as a terminal shows them) —
/// and is run here through `sh`, with `fetch-history` on `PATH`, against a
/// copy of `Fixtures/readme-history.jsonl` imported into a fresh database
/// (UTC, no terminal, so no width limit unless the line sets `COLUMNS`).
///
/// A comment on the line before the block adjusts that:
/// - `<!-- example: new history -->` starts from an empty history instead;
/// - `<!-- example: varies -->` compares the lines with every number and id
///   masked and runs of spaces as one (what a fresh recording prints has
///   its own times, ids, durations and random values);
/// - `<!-- example: not run: WHY -->` leaves the block out, saying why.
/// A last line `…` means the rest of the output is left out of the page.
@Suite("The documentation's examples print what the pages show")
struct ReadmeExampleTests {
    static let fixture = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/readme-history.jsonl")

    struct Step: Sendable {
        var command: String
        var output: [String]
    }

    struct Example: Sendable, CustomStringConvertible {
        /// The page it is on, from the package's root.
        var page: String
        /// The page's line of the block's opening fence.
        var line: Int
        var steps: [Step]
        var startsEmpty = false
        var varies = false
        var isRun = true
        var description: String { "\(page):\(line) $ \(steps.first?.command ?? "")" }
    }

    static func examples() throws -> [Example] {
        try DocsPage.all().flatMap { try examples(in: $0) }
    }

    static func examples(in page: String) throws -> [Example] {
        let lines = try DocsPage.text(page).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var examples: [Example] = []
        var index = 0
        while index < lines.count {
            defer { index += 1 }
            guard lines[index].hasPrefix("```") else { continue }
            let opening = index
            var body: [String] = []
            index += 1
            while index < lines.count, !lines[index].hasPrefix("```") {
                body.append(lines[index])
                index += 1
            }
            guard lines[opening] == "```", body.first?.hasPrefix("$ ") == true else { continue }
            var example = Example(page: page, line: opening + 1, steps: [])
            for line in body {
                if line.hasPrefix("$ ") {
                    example.steps.append(Step(command: String(line.dropFirst(2)), output: []))
                } else {
                    example.steps[example.steps.count - 1].output.append(line)
                }
            }
            let marker = opening > 0 ? lines[opening - 1] : ""
            if marker.hasPrefix("<!-- example: ") {
                example.startsEmpty = marker.contains("new history")
                example.varies = marker.contains("varies")
                example.isRun = !marker.contains("not run")
            }
            examples.append(example)
        }
        return examples
    }

    @Test func theDocsHaveExamplesAndRunMostOfThem() throws {
        let examples = try Self.examples()
        // The 21 examples README held before it became a front page, and the front page's tour.
        #expect(examples.count >= 21 + 5, "\(examples)")
        #expect(examples.count { $0.isRun } >= examples.count - 3, "\(examples.filter { !$0.isRun })")
        let tour = examples.filter { $0.page == "README.md" }
        #expect(tour.count >= 5 && tour.allSatisfy(\.isRun), "the front page's tour: \(tour)")
    }

    @Test(arguments: try examples().filter(\.isRun))
    func eachExamplePrintsWhatItsPageShows(_ example: Example) async throws {
        // Given the docs' fixture history (or an empty one)
        let sandbox = try Sandbox()
        if !example.startsEmpty {
            let result = try await sandbox.run("import", Self.fixture.path)
            #expect(result.status == 0, "\(result)")
        }

        for step in example.steps {
            // When the command runs as a shell would run it
            var environment = sandbox.environment()
            environment["PATH"] = FetchHistoryProcess.binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
            let result = try await sandbox.run(
                ["-c", step.command + " 2>&1"], environment: environment, executable: URL(fileURLWithPath: "/bin/sh")
            )

            // Then it prints what the page shows (CSV's CRLF shown as line ends)
            var printed = result.standardOutput.replacingOccurrences(of: "\r\n", with: "\n")
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if printed.last == "" { printed.removeLast() }
            var shown = step.output
            if shown.last == "…" {
                shown.removeLast()
                printed = Array(printed.prefix(shown.count))
            }
            let same = example.varies ? printed.map(Self.masked) == shown.map(Self.masked) : printed == shown
            #expect(same, "\(example): `\(step.command)` prints, in the page's form:\n\(printed.joined(separator: "\n"))")
        }
    }

    /// The line's words, every run of digits and of four or more hex
    /// digits (ids) as `#`: what stays is the outcomes, sources, units and
    /// the other words.
    static func masked(_ line: String) -> [String] {
        line.split(separator: " ").map { word in
            var masked = ""
            var run = ""
            func flush() {
                guard !run.isEmpty else { return }
                // A part of an id may have no digit at all (`aacd`), and a word's letters may be hex (`cceeded`):
                // both sides mask alike, and words keep their other letters.
                masked += run.count >= 4 || run.allSatisfy(\.isNumber) ? "#" : run
                run = ""
            }
            for character in word {
                if character.isHexDigit {
                    run.append(character)
                } else {
                    flush()
                    masked.append(character)
                }
            }
            flush()
            return masked
        }
    }
}
