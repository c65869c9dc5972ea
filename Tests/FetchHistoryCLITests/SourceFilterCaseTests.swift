import Foundation
import Testing

/// `--source` is case-sensitive (its help says so): a source, a host and a
/// URL prefix each match only as they were recorded.
@Suite("--source is case-sensitive")
struct SourceFilterCaseTests {
    @Test(arguments: ["RANDOM", "Random", "NUMBERS.EXAMPLE", "HTTPS://numbers.example/", "https://NUMBERS.example/"])
    func aSourceInOtherCaseMatchesNothing(_ text: String) async throws {
        // Given the standard history: fetches from random and from https://numbers.example/api
        let sandbox = try Sandbox()
        try await sandbox.importRecords(Fixtures.standard)
        let recorded = try await sandbox.listedIDs(["--source", text.lowercased()])
        #expect(!recorded.isEmpty, "--source \(text.lowercased()) matches as recorded")

        // When listed by the same source, host or prefix in other case
        let listed = try await sandbox.listedIDs(["--source", text])

        // Then nothing matches
        #expect(listed.isEmpty, "--source \(text): \(listed)")
    }
}
