import Foundation
import Testing
@testable import FetchHistoryModel

/// A fetch's problem: the key `stats --by problem` groups by, computed from
/// what was recorded, the same for every occurrence of one failure.
@Suite("A failure's problem key")
struct ProblemTests {
    static func fetch(_ outcome: FetchOutcome?, status: Int? = nil) -> Fetch {
        Fetch(
            id: UUID(), sessionID: UUID(), source: "http://h/n", startedAt: Timestamp(millisecondsSince1970: 0),
            outcome: outcome, response: status.map { SourceResponse(status: $0, bytes: 3) }
        )
    }

    @Test(arguments: [
        (FetchOutcome.failed("HTTP 503"), 503, "HTTP 503"),
        (.failed("the body was not a number"), 404, "HTTP 404"),
        (.failed("response is neither JSON nor a number: \"hello\""), 200, "response is neither JSON nor a number: \"…\""),
        (.timedOut, nil, "timed out"),
        (.cancelled(.superseded), nil, "cancelled"),
        (.cancelled(.terminated), nil, "cancelled"),
        (.interrupted, nil, "interrupted"),
        (.failed("connection refused by 127.0.0.1"), nil, "connection refused by <ip>"),
    ] as [(FetchOutcome, Int?, String)])
    func eachOutcomeThatIsNoSuccessHasAKey(_ outcome: FetchOutcome, _ status: Int?, _ key: String) {
        // Given a fetch that did not succeed
        // When its problem is read
        // Then an HTTP status outside 2xx names it, else the outcome, else its masked error
        #expect(Problem(of: Self.fetch(outcome, status: status))?.key == key)
    }

    @Test func aSucceededOrRunningFetchHasNoProblem() {
        #expect(Problem(of: Self.fetch(.succeeded(7), status: 200)) == nil)
        #expect(Problem(of: Self.fetch(nil)) == nil)
    }

    @Test(arguments: [
        ("user 17 not found", "user 42 not found", "user <n> not found"),
        ("connection refused by 10.0.0.7:8080", "connection refused by 10.0.0.9:8081", "connection refused by <ip>"),
        ("no route to [::1]:5432", "no route to [fe80::1]:5433", "no route to <ip>"),
        ("session 0e8a1e00-01a2-8c41-9d2e-4b7f0a6c3e18 expired", "session 14221c40-01a2-8a11-9c3e-2f6d1b7a0e51 expired",
         "session <uuid> expired"),
        ("commit 3f2a9c1d8e not found", "commit 77aa01bd44 not found", "commit <hex> not found"),
        ("unexpected token 'x' in \"a b\"", "unexpected token 'y' in \"c\"", "unexpected token \"…\" in \"…\""),
        ("GET https://a.example/v1/u?id=3 failed", "GET http://b.example/x failed", "GET <url> failed"),
        ("took 1.5e3 ms, over -20", "took 12 ms, over +7", "took <n> ms, over <n>"),
        ("took 30ms", "took 2500ms", "took <n>ms"),
        ("  spaced \t out\n", "spaced out", "spaced out"),
    ])
    func whatVariesBetweenOccurrencesIsMasked(_ one: String, _ other: String, _ key: String) {
        // Given two errors of one problem, differing only in what varies
        // When each is masked
        // Then both give the same key
        #expect(Problem.masked(one) == key)
        #expect(Problem.masked(other) == key)
    }

    @Test(arguments: [
        ("API v2 is gone", "API v2 is gone"),
        ("can't parse it", "can't parse it"),
        ("error E1234", "error E1234"),
        ("deadbeef", "deadbeef"),
        ("abc123def456", "<hex>"),
        ("HTTP/1.1 framing", "HTTP/<n> framing"),
    ])
    func namesThatDoNotVaryAreKept(_ text: String, _ key: String) {
        // Given errors holding names with digits, an apostrophe, a hex-looking word of letters only
        // When masked
        // Then only what stands alone as a number, id or address is masked
        #expect(Problem.masked(text) == key)
    }
}
