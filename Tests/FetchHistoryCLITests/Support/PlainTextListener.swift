import Foundation

/// A server on 127.0.0.1 that answers every connection at once with a
/// plain-HTTP `400` and closes it, whatever the client sent: what an
/// `https://` URL meets when it points at a plain-http port (the TLS
/// ClientHello gets text back, not a ServerHello).
final class PlainTextListener: Sendable {
    var port: UInt16 { listener.port }
    private let listener: LoopbackListener

    init() throws {
        listener = try LoopbackListener()
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops accepting; the accept loop closes the listener itself.
    func stop() {
        listener.stop()
    }

    private func acceptLoop() {
        defer { listener.close() }
        while let connection = listener.nextConnection() {
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, Int32(MSG_NOSIGNAL))
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }
}
