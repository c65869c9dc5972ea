import Foundation
import Synchronization

/// A server on 127.0.0.1 that answers every connection at once with a
/// plain-HTTP `400` and closes it, whatever the client sent: what an
/// `https://` URL meets when it points at a plain-http port (the TLS
/// ClientHello gets text back, not a ServerHello).
final class PlainTextListener: @unchecked Sendable {
    // Unchecked: `listener` and `port` are set once in init; `stopped` is behind a mutex.

    let port: UInt16
    private let listener: Int32
    private let stopped = Mutex(false)

    init() throws {
        (listener, port) = try LoopbackListener.open()
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops accepting; the accept loop closes the listener itself.
    func stop() {
        let wasStopped = stopped.withLock { value in
            defer { value = true }
            return value
        }
        if !wasStopped { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        defer { close(listener) }
        while let connection = LoopbackListener.nextConnection(on: listener, isStopped: { stopped.withLock { $0 } }) {
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, Int32(MSG_NOSIGNAL))
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }
}
