import Foundation
import Testing

/// `fetch --source` refusing a value: one `error:` sentence that names the
/// value without its secrets and suggests the value meant when it is close
/// to one that works; a usage error, and nothing recorded.
@Suite("fetch --source names a refused value safely and suggests the one meant")
struct SourceOptionTests {
    static let refusal = "error: --source must be 'random' or an http:// or https:// URL with a host, not "

    @Test(arguments: [
        // A user and password, without a scheme: never echoed, and the scheme suggested
        ("alice:hunter2@127.0.0.1/n?token=S3CR3T",
         "***:***@127.0.0.1/n?token=***; did you mean 'http://***:***@127.0.0.1/n?token=***'?"),
        ("alice:p/w@127.0.0.1:8765", "***:***@127.0.0.1:8765; did you mean 'http://***:***@127.0.0.1:8765'?"),
        // A harmless host and port: named, and given its scheme
        ("127.0.0.1:8765", "127.0.0.1:8765; did you mean 'http://127.0.0.1:8765'?"),
        ("localhost:8080/n", "localhost:8080/n; did you mean 'http://localhost:8080/n'?"),
        // The built-in source, mistyped
        ("Random", "Random; did you mean 'random'?"),
        ("RANDOM", "RANDOM; did you mean 'random'?"),
        ("randm", "randm; did you mean 'random'?"),
        // Nothing close: named alone
        ("numbers", "numbers"),
        ("ftp://alice:hunter2@h/n?token=S3CR3T", "ftp://***:***@h/n?token=***"),
        ("http://", "http://"),
        ("https//example.com", "https//example.com"),
        // Text that would drive the terminal: escaped
        ("\u{1B}]0;owned\u{07}", #"\x1b]0;owned\x07"#),
    ])
    func aRefusedSourceIsOneSentenceNamingItSafelyWithTheValueMeant(_ value: String, _ expected: String) async throws {
        // Given an empty sandbox
        let sandbox = try Sandbox()

        // When fetch is given the source
        let result = try await sandbox.run("fetch", "--source", value)

        // Then it is a usage error whose first line names the value, secrets hidden, and
        // suggests the one meant; no secret is printed, and nothing is recorded
        #expect(result.status == 64, "\(result)")
        #expect(result.standardError.split(separator: "\n").first.map(String.init) == Self.refusal + expected, "\(result)")
        for secret in ["hunter2", "alice", "S3CR3T", "p/w", "\u{1B}"] {
            #expect(!(result.standardError + result.standardOutput).contains(secret), "\(result)")
        }
        #expect(!FileManager.default.fileExists(atPath: sandbox.database))
    }
}
