import Foundation
import LoopbackServers
import Testing

/// Failures before any HTTP response, in the words docs/commands.md promises, never
/// URLSession's bare codes (`network error -1`, `-1000`, `-1002`).
@Suite("fetch --source names transport failures in words")
struct HTTPTransportErrorTests {
    /// Runs one fetch of `url` and returns the recorded error.
    private func recordedError(fetching url: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let sandbox = try Sandbox()
        let result = try await sandbox.run("fetch", "--source", url)
        #expect(result.status == 1, "\(result)", sourceLocation: sourceLocation)
        let record = try #require(try await sandbox.exportedRecords().first, sourceLocation: sourceLocation)
        #expect(record.outcome == "failed", "\(record)", sourceLocation: sourceLocation)
        return record.error ?? ""
    }

    @Test func anHTTPSURLToAPlainHTTPServerIsATLSFailure() async throws {
        // Given a server that speaks plain HTTP
        let server = try PlainTextListener()
        defer { server.stop() }

        // When an https URL asks it
        let error = try await recordedError(fetching: "https://127.0.0.1:\(server.port)/n?token=secret")

        // Then the failure is a TLS handshake failure with that host, OpenSSL's reason and a hint at
        // the likely mistake, and no code, URL or secret
        #expect(error == "TLS handshake with 127.0.0.1 failed: wrong version number (does the server speak plain http?)", "\(error)")
    }

    @Test func aClosedPortIsAConnectionRefusedByTheHost() async throws {
        // Given a port nothing listens on
        let port = try LocalHTTPServer.closedPort()

        // When it is asked, by an upper-case scheme
        let error = try await recordedError(fetching: "HTTP://127.0.0.1:\(port)/n")

        // Then the scheme was accepted (no "unsupported URL", -1002) and the connection was refused
        #expect(error == "connection refused by 127.0.0.1", "\(error)")
    }

    @Test func anIPv6LiteralIsNamedNotANetworkErrorCode() async throws {
        // Given [::1] with a port nothing listens on
        let port = try LocalHTTPServer.closedPort()

        // When it is asked
        let error = try await recordedError(fetching: "http://[::1]:\(port)/n")

        // Then the failure says why in words, and what to do: URLSession on Linux refuses IPv6
        // literals (-1000); where it does not, the connection is refused
        let refusedLiteral = "cannot fetch from an IPv6 address written in the URL ([::1]): URLSession on Linux refuses it; "
            + "use a host name that resolves to it"
        #expect(error == refusedLiteral || error == "connection refused by ::1", "\(error)")
    }

    @Test func anIPv6LiteralHostIsFetched() async throws {
        // Given a server on ::1
        let server = try LocalHTTPServer(ipv6: true) { _ in .answer(status: 200, body: Data("42".utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When a fetch names it by its IPv6 literal
        let result = try await sandbox.run("fetch", "--source", server.url("/n"), "--format", "jsonl")

        // Then it answers, and the history keeps the URL as given
        #expect(result.status == 0, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "succeeded" && record.value == 42 && record.status == 200, "\(record)")
        #expect(record.source == "http://[::1]:\(server.port)/n")
    }

    @Test func anUpperCaseSchemeFetchesAndIsRecordedInLowerCase() async throws {
        // Given a server answering 42
        let server = try LocalHTTPServer { _ in .answer(status: 200, body: Data("42".utf8)) }
        defer { server.stop() }
        let sandbox = try Sandbox()

        // When its URL is given as HTTP://
        let result = try await sandbox.run("fetch", "--source", "HTTP://127.0.0.1:\(server.port)/n")

        // Then the fetch succeeds and the source is recorded as http://
        #expect(result.status == 0, "\(result)")
        let record = try #require(try await sandbox.exportedRecords().first)
        #expect(record.outcome == "succeeded" && record.value == 42, "\(record)")
        #expect(record.source == server.url("/n"), "\(record)")
    }
}
