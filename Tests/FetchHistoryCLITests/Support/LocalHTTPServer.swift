import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 with a port of its own, so the HTTP
/// source is tested end to end with no network. Each connection gets one
/// response from `respond`, then is closed.
final class LocalHTTPServer: @unchecked Sendable {
    // Unchecked: `listener` is set once in init; the rest is behind mutexes.

    enum Reply: Sendable {
        /// A status line, Content-Type (none when nil), Content-Length and the body.
        case answer(status: Int, contentType: String? = "text/plain", body: Data)
        /// Never answer; hold the connection until the client closes it or the server stops.
        case hang
    }

    var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let ipv6: Bool
    private let requestLines = Mutex<[String]>([])
    private let respond: @Sendable (String) -> Reply

    /// `respond` gets the request line (`GET /path?query HTTP/1.1`). With
    /// `ipv6`, the server listens on ::1 and `url` names it `[::1]`.
    init(ipv6: Bool = false, respond: @escaping @Sendable (String) -> Reply) throws {
        self.respond = respond
        self.ipv6 = ipv6
        listener = try LoopbackListener(ipv6: ipv6)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit {
        stop()
    }

    /// A server that answers the first request with `body` and holds every
    /// later one: a run of fetches from it is known to be in its second
    /// fetch, and to stay there, once `requests.count` is 2.
    static func answeringOnlyTheFirst(with body: String = "42") throws -> LocalHTTPServer {
        let first = Mutex(true)
        return try LocalHTTPServer { _ in
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? .answer(status: 200, body: Data(body.utf8)) : .hang
            }
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    func url(_ path: String) -> String {
        (ipv6 ? "http://[::1]:" : "http://127.0.0.1:") + "\(port)\(path)"
    }

    /// The request lines received so far.
    var requests: [String] { requestLines.withLock { $0 } }

    /// Stops accepting and wakes every held connection.
    func stop() {
        listener.stop()
    }

    private var isStopped: Bool { listener.isStopped }

    private func acceptLoop() {
        defer { listener.close() }
        while let connection = listener.nextConnection() {
            Thread { [self] in serve(connection) }.start()
        }
    }

    private func serve(_ connection: Int32) {
        defer { close(connection) }
        // Read the head (a GET has no body).
        var head = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while head.range(of: Data("\r\n\r\n".utf8)) == nil {
            let count = read(connection, &buffer, buffer.count)
            // A signal to the test process (a child's exit) interrupts a read
            // that has read nothing; closing then would look, to the client,
            // like a server that answered nothing ("malformed response").
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return }
            head.append(contentsOf: buffer[0..<count])
        }
        let requestLine = String(decoding: head, as: UTF8.self).components(separatedBy: "\r\n").first ?? ""
        requestLines.withLock { $0.append(requestLine) }

        switch respond(requestLine) {
        case .hang:
            // Until the client goes away (read returns 0) or the server stops.
            var pollDescriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            while !isStopped {
                let ready = poll(&pollDescriptor, 1, 100)
                if ready > 0 {
                    if read(connection, &buffer, buffer.count) <= 0 { return }
                }
            }
        case .answer(let status, let contentType, let body):
            let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
                + (contentType.map { "Content-Type: \($0)\r\n" } ?? "")
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            var bytes = Data(head.utf8)
            bytes.append(body)
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                    if written < 0, errno == EINTR { continue }
                    if written <= 0 { return }
                    offset += written
                }
            }
            shutdown(connection, Int32(SHUT_WR))
            // Let the client read everything before the close.
            var pollDescriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&pollDescriptor, 1, 5_000) > 0 { _ = read(connection, &buffer, buffer.count) }
        }
    }

    /// A port on 127.0.0.1 that nothing listens on (bound, then closed).
    static func closedPort() throws -> UInt16 {
        let server = try LocalHTTPServer { _ in .hang }
        let port = server.port
        server.stop()
        return port
    }
}
