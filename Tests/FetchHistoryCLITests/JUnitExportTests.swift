import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// `export --format junit`: validated by xmllint against a JUnit schema
/// (`Fixtures/junit.xsd`), and read back by an XML parser to check what a
/// CI system would show: a suite per session or source, a case per fetch,
/// failures, skips and errors as the outcomes say.
@Suite("export --format junit")
struct JUnitExportTests {
    static let schema = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Fixtures/junit.xsd").path

    /// The report, checked against the schema by xmllint (Debian's
    /// libxml2-utils, which README's test command installs).
    static func validated(_ sandbox: Sandbox, _ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> XMLElement {
        let file = sandbox.path("report-\(UUID().uuidString).xml")
        let export = try await sandbox.run(["export", "--format", "junit", "--output", file] + arguments)
        #expect(export.status == 0, "\(export)", sourceLocation: sourceLocation)
        let lint = try await FetchHistoryProcess.start(
            arguments: ["--noout", "--schema", schema, file], environment: ["PATH": "/usr/bin:/bin"], workingDirectory: sandbox.root,
            executable: URL(fileURLWithPath: "/usr/bin/xmllint")
        ).wait()
        #expect(lint.status == 0, "xmllint --schema junit.xsd: \(lint.standardError)", sourceLocation: sourceLocation)
        return try #require(XMLElement.parse(Data(contentsOf: URL(filePath: file))), sourceLocation: sourceLocation)
    }

    @Test func aSuitePerSessionACasePerFetchAndEachOutcomeAsCIShowsIt() async throws {
        // Given ten fetches in three sessions with every outcome
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When exported as JUnit
        let report = try await Self.validated(sandbox)

        // Then there is a suite per session, in the order they started, counting its cases
        #expect(report.name == "testsuites")
        #expect(report.attributes["tests"] == "10" && report.attributes["failures"] == "3", "\(report.attributes)")
        #expect(report.attributes["errors"] == "2", "\(report.attributes)")
        #expect(report.attributes["skipped"] == nil, "junit-10.xsd allows no skipped count on testsuites: \(report.attributes)")
        let suites = report.children(named: "testsuite")
        #expect(suites.map { $0.attributes["name"] } == (1...3).map { "session \(Ids.session($0))" })
        #expect(suites.map { $0.children(named: "testcase").count } == [3, 4, 3])
        #expect(suites.map { $0.attributes["tests"] } == ["3", "4", "3"])
        #expect(suites.map { $0.attributes["failures"] } == ["1", "1", "1"])
        #expect(suites.map { $0.attributes["skipped"] } == ["1", "1", "0"])
        #expect(suites.map { $0.attributes["errors"] } == ["0", "2", "0"])
        // The suite's time is its fetches' durations, its timestamp its first start
        #expect(suites[0].attributes["time"] == "0.240", "\(suites[0].attributes)")
        #expect(suites[0].attributes["timestamp"] == ISO.format(Fixtures.day0 + 250))

        // And each case says what happened, the error whole, the fetch's id in its output
        let cases = suites.flatMap { $0.children(named: "testcase") }
        #expect(cases.map { $0.attributes["name"] } == Fixtures.standard.map { "\($0.source) at \(ISO.format($0.startedAt))" })
        #expect(cases[0].children.isEmpty == false && cases[0].children(named: "failure").isEmpty && cases[0].children(named: "skipped").isEmpty)
        #expect(cases[0].attributes["time"] == "0.120" && cases[0].attributes["classname"] == "session \(Ids.session(1))")
        #expect(cases[1].children(named: "failure").first?.attributes["message"] == "HTTP 503: \"busy\"/retry")
        #expect(cases[1].children(named: "failure").first?.attributes["type"] == "failed")
        #expect(cases[2].children(named: "skipped").first?.attributes["message"] == "cancelled (user)")
        #expect(cases[3].children(named: "skipped").first?.attributes["message"] == "cancelled (superseded)")
        #expect(cases[4].children(named: "failure").first?.attributes["type"] == "timed-out")
        #expect(cases[5].children(named: "error").first?.attributes["type"] == "interrupted")
        #expect(cases[6].children(named: "error").first?.attributes["type"] == "interrupted")
        #expect(cases[6].attributes["time"] == nil, "an interrupted fetch has no duration to give")
        #expect(cases[9].children(named: "failure").first?.text == "line one\nline two")
        #expect(cases[9].children(named: "failure").first?.attributes["message"] == "line one\nline two")
        let output = try #require(cases[7].children(named: "system-out").first?.text)
        #expect(output.contains("id: \(Ids.fetch(8))\n") && output.contains("value: 100\n") && output.contains("http: 200, 4 bytes\n"), "\(output)")
    }

    @Test func bySourceASuitePerSource() async throws {
        // Given fetches of two sources spread over three sessions
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When exported as JUnit by source
        let report = try await Self.validated(sandbox, "--by", "source")

        // Then there is a suite per source, first seen first, holding all its fetches
        let suites = report.children(named: "testsuite")
        #expect(suites.map { $0.attributes["name"] } == ["random", Fixtures.otherSource])
        #expect(suites.map { $0.children(named: "testcase").count } == [6, 4])
        #expect(suites[1].attributes["hostname"] == nil, "a source's fetches may come from several hosts")
    }

    @Test func filtersChooseTheFetchesAndAnEmptyReportIsStillValid() async throws {
        // Given the history
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        // When only the failures are exported, and then nothing matches
        let failures = try await Self.validated(sandbox, "--outcome", "failed")
        let nothing = try await Self.validated(sandbox, "--grep", "no such text")

        // Then the report holds the two failures, and an empty report is a valid one with no suite
        #expect(failures.children(named: "testsuite").flatMap { $0.children(named: "testcase") }.count == 2)
        #expect(nothing.attributes["tests"] == "0" && nothing.children.isEmpty, "\(nothing.attributes)")
    }

    @Test func recordedTextCannotBreakTheXMLOrAddMarkup() async throws {
        // Given errors and a source holding markup, quotes, control and bidi characters
        let hostile = "<script>alert(1)</script> \"><img src=x onerror=alert(1)> & \u{1}\u{1B}[31m \u{202E}txt.exe"
        let sandbox = try Sandbox()
        try await sandbox.importRecords([
            .make("failed", id: Ids.fetch(1), source: "https://h.example/?q=<a>&b=\"", at: Fixtures.day0, error: hostile),
            .make("failed", id: Ids.fetch(2), at: Fixtures.day0 + 1, error: String(repeating: "long ", count: 20_000)),
        ])

        // When exported as JUnit
        let report = try await Self.validated(sandbox)

        // Then the parser reads the text back as text, the characters XML cannot hold replaced
        let cases = report.children(named: "testsuite").flatMap { $0.children(named: "testcase") }
        let expected = hostile.replacingOccurrences(of: "\u{1}", with: "\u{FFFD}").replacingOccurrences(of: "\u{1B}", with: "\u{FFFD}")
        #expect(cases[0].children(named: "failure").first?.text == expected)
        #expect(cases[0].children(named: "failure").first?.attributes["message"] == expected)
        #expect(cases[0].children(named: "failure").first?.children.isEmpty == true, "no element came out of recorded text")
        #expect(cases[0].attributes["name"] == "https://h.example/?q=<a>&b=\" at \(ISO.format(Fixtures.day0))")
        #expect(cases[1].children(named: "failure").first?.text.count == 100_000)
    }

    @Test func byAndFieldsAreRefusedWhereTheyMeanNothing() async throws {
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)

        let by = try await sandbox.run("export", "--format", "json", "--by", "source")
        #expect(by.status == 64 && by.standardError.contains("--by applies to --format junit only, not json"), "\(by)")
        let fields = try await sandbox.run("export", "--format", "junit", "--fields", "id")
        #expect(fields.status == 64 && fields.standardError.contains("--fields applies to --format json, jsonl and csv only, not junit"), "\(fields)")
        let grouping = try await sandbox.run("export", "--format", "junit", "--by", "host")
        #expect(grouping.status == 64 && grouping.standardOutput.isEmpty, "\(grouping)")
    }
}

/// An XML element as a test reads it: name, attributes, child elements and
/// the text directly inside it.
final class XMLElement: @unchecked Sendable {
    let name: String
    let attributes: [String: String]
    private(set) var children: [XMLElement] = []
    fileprivate(set) var text = ""

    init(name: String, attributes: [String: String]) {
        self.name = name
        self.attributes = attributes
    }

    func children(named name: String) -> [XMLElement] { children.filter { $0.name == name } }

    /// The document's root, or nil when the data is not well-formed XML.
    static func parse(_ data: Data) -> XMLElement? {
        let reader = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = reader
        return parser.parse() ? reader.root : nil
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var root: XMLElement?
        var open: [XMLElement] = []

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String]) {
            let element = XMLElement(name: name, attributes: attributes)
            if let parent = open.last { parent.children.append(element) } else { root = element }
            open.append(element)
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            open.removeLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            open.last?.text += string
        }
    }
}
