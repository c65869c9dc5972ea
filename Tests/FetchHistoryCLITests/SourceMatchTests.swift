import Foundation
import Testing

@Suite("--source matches the exact source, a URL's host, or a URL prefix")
struct SourceMatchTests {
    private let sources = [
        "random",  // 1
        "http://127.0.0.1:8080/number",  // 2
        "http://127.0.0.1:9090/number?page=2",  // 3
        "https://example.com",  // 4
        "https://example.com.evil.org/n",  // 5
        "http://[::1]:8080/n",  // 6
        "http://h/*",  // 7
        "http://h/x",  // 8
    ]

    private func history() async throws -> Sandbox {
        let sandbox = try Sandbox()
        try await sandbox.importRecords(sources.enumerated().map { index, source in
            ExportRecord.make("succeeded", id: Ids.fetch(index + 1), source: source, at: Fixtures.day0 + Int64(index) * 1000)
        })
        return sandbox
    }

    @Test(arguments: [
        ("random", [1]),
        ("127.0.0.1", [2, 3]),
        ("127.0.0.1:8080", [2]),
        ("example.com", [4]),
        ("[::1]", [6]),
        ("http://127.0.0.1:", [2, 3]),
        ("https://example.com", [4, 5]),
        ("http://h/*", [7]),
        ("rand", []),
        ("number", []),
        ("0.0.1", []),
    ])
    func sourceMatches(text: String, expected: [Int]) async throws {
        // Given fetches from eight sources
        let sandbox = try await history()

        // When listed by --source
        let listed = try await sandbox.listedIDs(["--source", text])

        // Then text with :// is a URL prefix (literally: * is no wildcard), other text an exact
        // source or an http(s) host[:port], never a part of one
        #expect(listed == expected.reversed().map(Ids.fetch), "--source \(text)")
    }
}
