import Foundation
import Testing

/// `fetch`'s options say what is wrong with a value, including one that
/// starts with '-', and its formats use `list`'s names.
@Suite("fetch options: negative values, jsonl, wording")
struct FetchOptionTests {
    @Test func aNegativeCountIsRefusedInOneSentence() async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When the count is -1, or 0
        let negative = try await sandbox.run("fetch", "--count", "-1")
        let zero = try await sandbox.run("fetch", "--count", "0")

        // Then each is a usage error about the count, and nothing is created
        #expect(negative.status == 64, "\(negative)")
        #expect(negative.standardError.hasPrefix("error: --count must be 1 or more, not -1\n"), "\(negative)")
        #expect(zero.standardError.hasPrefix("error: --count must be 1 or more, not 0\n"), "\(zero)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func negativeDurationsReachTheirOwnOption() async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When a duration option gets a value starting with '-'
        for option in ["--interval", "--timeout", "--latency"] {
            let result = try await sandbox.run("fetch", option, "-1s")

            // Then the error is about that option's value, not a missing one
            #expect(result.status == 64, "\(result)")
            #expect(result.standardError.hasPrefix("error: "), "\(result)")
            // (The wording of a bad duration is DurationArgument's, not fetch's.)
            #expect(result.standardError.contains(option), "\(result)")
            #expect(!result.standardError.contains("Missing value"), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func aRefusedSourceIsEchoedWithItsSecretsHidden() async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When the source is a URL fetch cannot use, with a user, a password and a token in it
        let result = try await sandbox.run("fetch", "--source", "ftp://alice:hunter2@h/n?token=S3CR3T")

        // Then the usage error echoes it with every secret as ***, and nothing is created
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.split(separator: "\n").first.map(String.init)
            == "error: --source must be 'random' or an http:// or https:// URL with a host, not ftp://***:***@h/n?token=***", "\(result)")
        #expect(!result.standardError.contains("S3CR3T") && !result.standardError.contains("hunter2") && !result.standardError.contains("alice"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }

    @Test func formatJsonlPrintsWhatJsonPrintsOneObjectPerLine() async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When two fetches are printed as jsonl, then one as json
        let jsonl = try await sandbox.run("fetch", "--count", "2", "--interval", "0", "--latency", "10ms", "--format", "jsonl")
        let json = try await sandbox.run("fetch", "--latency", "10ms", "--format", "jsonl")

        // Then each line of either is one record, the same record export writes
        #expect(jsonl.status == 0 && json.status == 0, "\(jsonl)\n\(json)")
        let printed = try (jsonl.lines + json.lines).map { try ExportRecord(jsonLine: $0) }
        let exported = try await sandbox.exportedRecords()
        #expect(printed.count == 3)
        #expect(Set(printed.map(\.id)) == Set(exported.map(\.id)))
        for record in printed { #expect(exported.contains(record), "\(record)") }
    }

    @Test func anAmbiguousPrefixSaysSeveralFetches() async throws {
        // Given two fetches whose ids share a prefix
        let sandbox = try Sandbox()
        let ids = ["abcdef00-0000-4000-8000-000000000001", "abcdef00-0000-4000-8000-000000000002"]
        try await sandbox.importRecords(ids.enumerated().map { ExportRecord.make("succeeded", id: $1, at: 1_790_000_000_000 + Int64($0)) })

        // When show is given the shared prefix
        let result = try await sandbox.run("show", "abcdef00")

        // Then the sentence says "fetches"
        #expect(result.status != 0, "\(result)")
        #expect(result.standardError.contains("matches several fetches ("), "\(result)")
        #expect(!result.standardError.contains("fetchs"), "\(result)")
    }
}
