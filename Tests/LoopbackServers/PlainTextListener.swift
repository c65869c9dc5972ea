import Foundation

/// A server on 127.0.0.1 that answers every connection with a plain-HTTP
/// `400` once the client has sent something, and closes it, whatever the
/// client sent: what an `https://` URL meets when it points at a plain-http
/// port (the TLS ClientHello gets text back, not a ServerHello). It reads
/// first, as an HTTP server does: answering before the ClientHello arrived
/// made the handshake meet the close rather than the text.
package final class PlainTextListener: Sendable {
    package var port: UInt16 { listener.port }
    private let listener: LoopbackListener

    package init() throws {
        listener = try LoopbackListener()
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops accepting; the accept loop closes the listener itself.
    package func stop() {
        listener.stop()
    }

    private func acceptLoop() {
        defer { listener.close() }
        while let connection = listener.nextConnection() {
            var request = [UInt8](repeating: 0, count: 4096)
            while recv(connection, &request, request.count, 0) < 0, errno == EINTR {}
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, Int32(MSG_NOSIGNAL))
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }
}
