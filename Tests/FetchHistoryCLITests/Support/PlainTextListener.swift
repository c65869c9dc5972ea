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
        var pollDescriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        while !stopped.withLock({ $0 }) {
            // Wait for a connection first: accept runs under the launch
            // lock, which must never be held while blocked.
            let ready = poll(&pollDescriptor, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            if ready < 0 || stopped.withLock({ $0 }) { return }
            let connection = FetchHistoryProcess.launchLock.withLock { _ in
                let connection = accept(listener, nil, nil)
                if connection >= 0 { FetchHistoryProcess.closeOnExec(connection) }
                return connection
            }
            if connection < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return
            }
            let reply = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
            _ = send(connection, reply, reply.count, Int32(MSG_NOSIGNAL))
            shutdown(connection, Int32(SHUT_WR))
            close(connection)
        }
    }
}
