import Foundation
import Testing

/// `report`'s page points at the problem: Problems first, the sources worst
/// first, the slowest fetches, lanes by source or host, and slices that name
/// their problems. What a browser shows of it is `ReportBrowserTests`'.
@Suite("report: problems")
struct ReportProblemsTests {
    /// The section `id` of `page`, from its tag to its end.
    static func section(_ id: String, of page: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let from = try #require(page.range(of: "<section id=\"\(id)\">"), "no section \(id)", sourceLocation: sourceLocation)
        return page[from.lowerBound...].components(separatedBy: "</section>")[0]
    }

    @Test func problemsComeRightAfterTheSummaryMostFirstWithWhereWhenAndExamples() async throws {
        // Given the docs' history: HTTP 503 three times from two sources on two hosts, three timeouts,
        // and a failure each of several other kinds
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", ReadmeExampleTests.fixture.path)

        // When reported
        let page = try await ReportTests.page(sandbox)

        // Then the sections come in this order: the summary, the problems, then the rest
        let order = ["summary", "problems", "timeline", "latency", "slowest", "sources", "failures", "fetches"]
        let places = try order.map { try #require(page.range(of: "<section id=\"\($0)\">")?.lowerBound, "\($0)") }
        #expect(places == places.sorted())
        // And each problem is a row, most fetches first, ties by the one seen first
        let problems = try Self.section("problems", of: page)
        let keys = problems.components(separatedBy: "<tr><td class=\"text\">").dropFirst().map {
            $0.components(separatedBy: "<code>")[1].components(separatedBy: "</code>")[0]
        }
        #expect(keys == [
            "HTTP 503", "timed out", "response is neither JSON nor a number: &quot;…&quot;", "HTTP 500", "connection refused by &lt;ip&gt;",
            "Échec : connexion refusée", "line one column line two", "cancelled", "interrupted",
        ])
        // And the first names its sources and hosts with their counts, when it was first and last seen,
        // how it spread over time, and its first and latest fetch, linked to their rows
        let first = try #require(problems.components(separatedBy: "<tr><td class=\"text\">").dropFirst().first)
        #expect(first.contains("<td>3 <span class=\"muted small\">23.1%</span></td>"), "3 of the 13 that did not succeed: \(first)")
        #expect(first.contains("<code>https://numbers.example/api/v2/number</code> (2), <code>http://127.0.0.1:8080/busy</code> (1)"), "\(first)")
        #expect(first.contains("<code>probe-1</code> (2), <code>vm</code> (1)"), "\(first)")
        #expect(first.contains("<td class=\"when\">2025-11-24 23:00:00.044</td><td class=\"when\">2025-11-25 19:15:08.401</td>"), "\(first)")
        #expect(first.contains("<svg class=\"spark\""))
        let ids = first.components(separatedBy: "href=\"#failure-").dropFirst().map { String($0.prefix(8)) }
        #expect(ids == ["0e8a1ff0", "142217f2"], "first and latest: \(first)")
        #expect(first.contains("<a href=\"#problem-1\"><code>HTTP 503</code></a>"))
        // And every link of the page leads somewhere on it
        for target in Set(page.components(separatedBy: "href=\"#").dropFirst().map { String($0.prefix { $0 != "\"" }) }) {
            #expect(page.contains("id=\"\(target)\""), "#\(target) leads nowhere")
        }
    }

    @Test func sourcesGoWorstFirstAndTheWorstIsMarkedInWords() async throws {
        // Given a source that always fails, one failing 3 of 10, a healthy one and one only cancelled
        let sandbox = try Sandbox()
        var records: [ExportRecord] = []
        func add(_ outcome: String, _ source: String, _ count: Int) {
            for _ in 0..<count {
                records.append(.make(outcome, id: Ids.fetch(40_000 + records.count), source: source, at: Fixtures.day0 + Int64(records.count) * 1_000))
            }
        }
        add("succeeded", "https://good.example/n", 10)
        add("cancelled", "https://idle.example/n", 2)
        add("succeeded", "https://flaky.example/n", 7)
        add("failed", "https://flaky.example/n", 3)
        add("failed", "https://down.example/n", 3)
        add("timed-out", "https://down.example/n", 2)
        try await sandbox.importRecords(records)

        // When reported
        let sources = try Self.section("sources", of: try await ReportTests.page(sandbox))

        // Then the rows go by failure rate, worst first; the one that decided nothing last
        let rows = sources.components(separatedBy: "<td class=\"source\">").dropFirst()
        #expect(rows.map { $0.components(separatedBy: "<code>")[1].components(separatedBy: "</code>")[0] } == [
            "https://down.example/n", "https://flaky.example/n", "https://good.example/n", "https://idle.example/n",
        ])
        // And the worst alone is marked, in words and by its row's border
        #expect(sources.components(separatedBy: "⚠ worst").count - 1 == 1)
        #expect(sources.contains("<tr class=\"worst\"><td class=\"source\"><strong class=\"flag\">⚠ worst</strong> <code>https://down.example/n</code>"))
        #expect(rows.first?.contains("<td>100.0%</td><td>0.0%</td>") == true && rows.dropFirst().first?.contains("<td>30.0%</td><td>70.0%</td>") == true)
        #expect(sources.contains("<th scope=\"col\" aria-sort=\"descending\">Failure rate</th>"))
    }

    @Test func theSlowestTwentyAreListedLongestFirst() async throws {
        // Given the docs' history, whose longest fetch timed out after a second
        let sandbox = try Sandbox()
        try await sandbox.succeed("import", ReadmeExampleTests.fixture.path)

        // When reported
        let slowest = try Self.section("slowest", of: try await ReportTests.page(sandbox))

        // Then twenty rows, longest first, of any outcome; of as long ones, the first to start
        let rows = slowest.components(separatedBy: "<tr><td>").dropFirst()
        let durations = rows.map { $0.components(separatedBy: "</td>")[0] }
        #expect(durations == ["1.00 s", "378 ms", "368 ms", "282 ms", "240 ms", "200 ms", "200 ms", "194 ms", "172 ms", "132 ms", "123 ms"]
            + Array(repeating: "120 ms", count: 3) + ["105 ms"] + Array(repeating: "100 ms", count: 5), "\(durations)")
        #expect(rows.first?.contains("timed out") == true && rows.first?.contains("href=\"#failure-0e8a2220") == true, "\(rows.first ?? "")")
        let hundreds = rows.suffix(5).map { $0.components(separatedBy: "title=\"fetch ")[1].prefix(8) }
        #expect(hundreds == ["14221c42", "142232a4", "14223309", "142239e1", "14223a47"], "\(hundreds)")
        // And each gives its value or its problem
        #expect(rows.first?.contains("<td class=\"text\">timed out</td>") == true && rows.dropFirst().first?.contains("<td class=\"text\">8</td>") == true)
    }

    /// Fetches from three sources on two hosts, the failing one every third.
    static func threeSources() async throws -> Sandbox {
        let sandbox = try Sandbox()
        let sources = ["random", "https://api.example/n", "https://other.example/n"]
        try await sandbox.importRecords((0..<12).map { index in
            .make(
                index % 3 == 1 ? "failed" : "succeeded", id: Ids.fetch(60_000 + index), session: Ids.session(1 + index / 6),
                source: sources[index % 3], at: Fixtures.day0 + Int64(index) * 1_000, error: "HTTP 503",
                status: index % 3 == 0 ? nil : index % 3 == 1 ? 503 : 200, bytes: index % 3 == 0 ? nil : 4, host: index < 6 ? "ci-1" : "ci-2"
            )
        })
        return sandbox
    }

    static func laneLabels(_ page: String) -> [String] {
        page.components(separatedBy: "<text class=\"lane-label\"").dropFirst().map {
            $0.components(separatedBy: "</title>")[1].components(separatedBy: "</text>")[0]
        }
    }

    @Test func lanesCanBeSourcesOrHostsSoAFailingSourceHasItsOwn() async throws {
        // Given twelve fetches in two sessions, on two hosts, from three sources
        let sandbox = try await Self.threeSources()

        // When reported by session (the default), by source and by host
        let bySession = try await ReportTests.page(sandbox)
        let bySource = try await ReportTests.page(sandbox, "--lanes", "source")
        let byHost = try await ReportTests.page(sandbox, "--lanes", "host")

        // Then the default is a lane per session, under its host
        #expect(Self.laneLabels(bySession) == ["5e550001 · ci-1", "5e550002 · ci-2"], "\(Self.laneLabels(bySession))")
        // And by source, a lane per source, holding that source's bars only
        #expect(Self.laneLabels(bySource) == ["random (2 sessions)", "https://api.example/n (2 sessions)", "https://other.example/n (2 sessions)"])
        let apiLane = try #require(bySource.components(separatedBy: "<g class=\"lane\">").dropFirst().dropFirst().first)
        #expect(apiLane.components(separatedBy: "<a class=\"fetch\"").count - 1 == 4 && apiLane.components(separatedBy: "o-failed").count - 1 == 4)
        #expect(bySource.contains("Every fetch recorded ·"), "--lanes is not a filter")
        // And by host, a lane per host
        #expect(Self.laneLabels(byHost) == ["ci-1", "ci-2"])
    }

    @Test func lanesAreRefusedWithJUnitAndWhenUnknown() async throws {
        let sandbox = try await Self.threeSources()
        let junit = try await sandbox.run("report", "--format", "junit", "--lanes", "source")
        #expect(junit.status == 64 && junit.standardError.contains("--lanes applies to --format html only, not junit"), "\(junit)")
        let unknown = try await sandbox.run("report", "--lanes", "outcome")
        #expect(unknown.status == 64 && unknown.standardError.contains("session") && unknown.standardError.contains("source"), "\(unknown)")
    }

    @Test func aSlicesDetailsNameItsProblemsAndSources() async throws {
        // Given 2,500 fetches, a second apart: "api" answers HTTP 503 one time in four, "random" always succeeds
        let sandbox = try Sandbox()
        try await sandbox.importRecords((0..<2_500).map { index in
            let api = index % 2 == 0
            let failed = api && index % 8 == 0
            return .make(
                failed ? "failed" : "succeeded", id: Ids.fetch(80_000 + index), source: api ? "https://api.example/n" : "random",
                at: Fixtures.day0 + Int64(index) * 1_000, error: "HTTP 503", status: api ? (failed ? 503 : 200) : nil, bytes: api ? 4 : nil
            )
        })

        // When reported with a lane per source
        let page = try await ReportTests.page(sandbox, "--lanes", "source")

        // Then the api's slices name, after their outcomes, the problem and the source
        let timeline = try #require(page.components(separatedBy: "<svg class=\"timeline\"").last?.components(separatedBy: "</svg>").first)
        let lanes = timeline.components(separatedBy: "<g class=\"lane\">").dropFirst()
        let api = try #require(lanes.first { $0.contains(">https://api.example/n</text>") })
        let details = api.components(separatedBy: "data-details=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(details.count > 50)
        let failing = try #require(details.first { $0.contains(" failed") })
        let lines = failing.components(separatedBy: "\n")
        #expect(lines.count == 3 && lines[1].hasPrefix("problem: HTTP 503 (") && lines[2].hasPrefix("source: https://api.example/n ("), "\(failing)")
        // And the random source's slices name no problem
        let random = try #require(lanes.first { $0.contains(">random</text>") })
        #expect(!random.contains("problem") && random.contains("source: random ("))
    }
}
