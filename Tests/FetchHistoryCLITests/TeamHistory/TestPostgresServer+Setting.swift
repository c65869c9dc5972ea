import Foundation

// What a team-history test changes on a private server
// (`TestPostgresServer.startPrivate()`), never on the shared one, which
// other tests use meanwhile.
extension TestPostgresServer {
    /// Makes the server present a new certificate, signed by the same test
    /// authority (`rootCertificate`) for the same key, naming `commonName`
    /// and covering `subjectAltName` (openssl's syntax: `DNS:localhost`,
    /// `IP:127.0.0.1`), and returns once the server presents it. PostgreSQL
    /// reloads its TLS files on `pg_reload_conf()`; the wait asks the
    /// server itself, over TLS, which certificate it now shows.
    func presentCertificate(commonName: String, subjectAltName: String) async throws {
        func openssl(_ arguments: [String]) async throws {
            let result = try await ExternalCommand.run("/usr/bin/openssl", arguments)
            guard result.succeeded else { throw SandboxError("openssl failed: \(result)") }
        }
        let name = "reissued-\(UUID().uuidString.prefix(8))"
        try await openssl(["req", "-new", "-key", "\(folder)/server.key", "-subj", "/CN=\(commonName)", "-out", "\(folder)/\(name).csr"])
        try "subjectAltName=\(subjectAltName)\n".write(toFile: "\(folder)/\(name).ext", atomically: true, encoding: .utf8)
        // Written over server.crt in place: the file keeps its owner, the server's user.
        try await openssl([
            "x509", "-req", "-in", "\(folder)/\(name).csr", "-CA", rootCertificate, "-CAkey", "\(folder)/root.key",
            "-CAcreateserial", "-days", "2", "-extfile", "\(folder)/\(name).ext", "-out", "\(folder)/server.crt",
        ])
        let wanted = try await ExternalCommand.run("/usr/bin/openssl", ["x509", "-noout", "-fingerprint", "-sha256", "-in", "\(folder)/server.crt"])
        guard wanted.succeeded, !wanted.standardOutput.isEmpty else { throw SandboxError("openssl failed: \(wanted)") }
        try await psql("SELECT pg_reload_conf()", database: "postgres")

        // Each look is a TLS handshake by another process, which paces the loop.
        let deadline = ContinuousClock.now + .seconds(60)
        var shown: ExternalCommand.Result?
        while ContinuousClock.now < deadline {
            let look = try await ExternalCommand.run("/bin/sh", [
                "-c", "openssl s_client -starttls postgres -connect 127.0.0.1:\(port) </dev/null 2>/dev/null | openssl x509 -noout -fingerprint -sha256",
            ])
            if look.standardOutput == wanted.standardOutput { return }
            shown = look
            await Task.yield()
        }
        throw SandboxError("the server did not present its new certificate within 60 s; it showed: \(shown.map(String.init(describing:)) ?? "nothing")")
    }

    /// Stops autovacuum, and returns once a new connection sees it stopped:
    /// an ANALYZE it runs takes a transaction id, and a test that needs the
    /// server idle (no transaction but its own between two of its steps)
    /// must not have one slip in.
    func stopAutovacuum() async throws {
        try await psql("ALTER SYSTEM SET autovacuum = off", database: "postgres")
        try await psql("SELECT pg_reload_conf()", database: "postgres")
        // Each look is a psql process, which paces the loop.
        let deadline = ContinuousClock.now + .seconds(60)
        while try await psql("SHOW autovacuum", database: "postgres") != "off" {
            guard ContinuousClock.now < deadline else { throw SandboxError("autovacuum still on 60 s after the reload") }
            await Task.yield()
        }
    }
}
