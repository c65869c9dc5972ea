import Foundation
import Testing

/// `sslmode=verify-full` checks the name the URL gives against the server's
/// certificate, `verify-ca` only its chain (docs/team-history.md, "Naming the server").
///
/// The shared server's certificate covers both IP 127.0.0.1 and DNS
/// localhost, and swift-nio-ssl matches an IP entry against the address it
/// connected to, whatever name led there: any name that reaches that server
/// passes (measured: `127.1`, `localhost`). So each test here runs a server
/// of its own (still on 127.0.0.1 and a socket in a temporary folder) and
/// gives it a certificate, from the same test authority, that leaves a name
/// out.
@Suite("A team history over TLS: verify-full checks the certificate's name", .enabled(if: TestPostgresServer.isAvailable, TestPostgresServer.skipReason))
struct TeamHistoryCertificateNameTests {
    /// `list -d URL --limit 1` in `team`'s sandbox, over TLS in `mode`, by `host`.
    private func list(_ team: TeamFixture, host: String, mode: String) async throws -> CLIResult {
        let url = "postgres://postgres:\(team.server.superuserPassword)@\(host):\(team.server.port)/\(team.database)"
            + "?sslmode=\(mode)&sslrootcert=\(team.server.rootCertificate)"
        return try await team.sandbox.run("list", "-d", url, "--limit", "1")
    }

    @Test func verifyFullRefusesAHostTheCertificateDoesNotNameWhereVerifyCAAcceptsIt() async throws {
        // Given a team history of ten fetches on a server whose certificate,
        // signed by the trusted test authority, names localhost alone (no IP address)
        let server = try await TestPostgresServer.startPrivate()
        defer { Task { await server.stop() } }
        let team = try await TeamFixture(on: server)
        try await team.succeed(["push", "-d", try await team.localFile(), "--to", team.url])
        try await server.presentCertificate(commonName: "localhost", subjectAltName: "DNS:localhost")

        // When it is listed by the name the certificate has, and by 127.0.0.1 (the same server) fully verified and chain only
        let byName = try await list(team, host: "localhost", mode: "verify-full")
        let byAddress = try await list(team, host: "127.0.0.1", mode: "verify-full")
        let chainOnly = try await list(team, host: "127.0.0.1", mode: "verify-ca")

        // Then the name passes, the address is refused in one sentence naming the certificate's name,
        // and the chain alone passes by the address
        #expect(byName.status == 0 && byName.lines.count == 2, "\(byName)")
        #expect(byAddress.status == 1 && byAddress.standardOutput.isEmpty, "\(byAddress)")
        #expect(byAddress.standardError.hasPrefix(
            "error: cannot connect to postgres@127.0.0.1:\(server.port)/\(team.database): TLS failed: the server's certificate is not for 127.0.0.1"
        ), "\(byAddress)")
        #expect(byAddress.standardError.split(separator: "\n").count == 1 && byAddress.standardError.hasSuffix("\n"), "\(byAddress)")
        let reason = byAddress.standardError.lowercased()
        #expect((reason.contains("tls") || reason.contains("certificate")) && reason.contains("name"), "\(byAddress)")
        #expect(!byAddress.standardError.contains(server.superuserPassword))
        #expect(chainOnly.status == 0 && chainOnly.lines.count == 2, "\(chainOnly)")
    }

    @Test func verifyFullRefusesANameTheCertificateLacksEvenWhenItCoversTheAddressTheNameLeadsTo() async throws {
        // Given a team history on a server whose certificate, signed by the trusted test authority,
        // covers IP 127.0.0.1 only, its common name another host's
        let server = try await TestPostgresServer.startPrivate()
        defer { Task { await server.stop() } }
        let team = try await TeamFixture(on: server)
        try await team.succeed(["push", "-d", try await team.localFile(), "--to", team.url])
        try await server.presentCertificate(commonName: "db.other.example", subjectAltName: "IP:127.0.0.1")

        // When it is listed fully verified by the address the certificate covers, and by localhost,
        // which leads to that address but is no name in the certificate; and libpq does the same
        let byAddress = try await list(team, host: "127.0.0.1", mode: "verify-full")
        let byName = try await list(team, host: "localhost", mode: "verify-full")
        let libpq = try await ExternalCommand.run("/usr/bin/psql", [
            "-X", "-t", "-A", "-c", "SELECT 1",
            "host=localhost port=\(server.port) dbname=\(team.database) user=postgres password=\(server.superuserPassword) "
                + "sslmode=verify-full sslrootcert=\(server.rootCertificate)",
        ])

        // Then the address passes, and the name is refused in one sentence, as libpq refuses it
        #expect(byAddress.status == 0 && byAddress.lines.count == 2, "\(byAddress)")
        #expect(!libpq.succeeded && libpq.standardError.contains("does not match host name \"localhost\""), "\(libpq)")
        withKnownIssue("swift-nio-ssl matches the certificate's IP entry against the address it connected to, not the name the URL gives") {
            #expect(byName.status == 1 && byName.standardError.hasPrefix("error: cannot connect to postgres@localhost:\(server.port)/"), "\(byName)")
            #expect(byName.standardError.split(separator: "\n").count == 1, "\(byName)")
        }
    }
}
