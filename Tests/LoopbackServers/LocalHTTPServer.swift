import Foundation
import Synchronization

/// A tiny HTTP/1.1 server on 127.0.0.1 with a port of its own, so the HTTP
/// source is tested end to end with no network. Each connection gets one
/// response from `respond`, then is closed.
package final class LocalHTTPServer: @unchecked Sendable {
    // Unchecked: `listener` is set once in init; the rest is behind mutexes.

    package enum Reply: Sendable {
        /// A status line, Content-Type (none when nil), Content-Length and the body.
        case answer(status: Int, contentType: String? = "text/plain", body: Data)
        /// Never answer; hold the connection until the client closes it or the server stops.
        case hang
        /// A 200 whose body never ends: bytes until the client closes the
        /// connection or the server stops.
        case endless
    }

    package var port: UInt16 { listener.port }
    private let listener: LoopbackListener
    private let ipv6: Bool
    private let received = ReceivedRequests()
    private let respond: @Sendable (String) -> Reply

    /// `respond` gets the request line (`GET /path?query HTTP/1.1`). With
    /// `ipv6`, the server listens on ::1 and `url` names it `[::1]`.
    package init(ipv6: Bool = false, respond: @escaping @Sendable (String) -> Reply) throws {
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
    package static func answeringOnlyTheFirst(with body: String = "42") throws -> LocalHTTPServer {
        let first = Mutex(true)
        return try LocalHTTPServer { _ in
            first.withLock { isFirst in
                defer { isFirst = false }
                return isFirst ? .answer(status: 200, body: Data(body.utf8)) : .hang
            }
        }
    }

    /// `http://127.0.0.1:PORT` + `path`.
    package func url(_ path: String) -> String {
        (ipv6 ? "http://[::1]:" : "http://127.0.0.1:") + "\(port)\(path)"
    }

    /// The request lines received so far.
    package var requests: [String] { received.all.map(\.line) }

    /// The `number`th request (1 for the first), once it has arrived.
    package func request(_ number: Int = 1) async -> ReceivedRequest {
        precondition(number >= 1, "request(\(number)): requests are counted from 1")
        return await received.request(number)
    }

    /// Stops accepting and wakes every held connection.
    package func stop() {
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
        let request = ReceivedRequest(head: String(decoding: head, as: UTF8.self))
        received.append(request)

        switch respond(request.line) {
        case .hang:
            // Until the client goes away (read returns 0) or the server stops.
            var pollDescriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            while !isStopped {
                let ready = poll(&pollDescriptor, 1, 100)
                if ready > 0 {
                    if read(connection, &buffer, buffer.count) <= 0 { return }
                }
            }
        case .endless:
            let head = Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(1 << 40)\r\n\r\n".utf8)
            let part = Data(repeating: UInt8(ascii: "1"), count: 16 * 1024)
            guard Self.write(head, to: connection) else { return }
            while !isStopped, Self.write(part, to: connection) {}
        case .answer(let status, let contentType, let body):
            let head = "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Status")\r\n"
                + (contentType.map { "Content-Type: \($0)\r\n" } ?? "")
                + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
            var bytes = Data(head.utf8)
            bytes.append(body)
            guard Self.write(bytes, to: connection) else { return }
            shutdown(connection, Int32(SHUT_WR))
            // Let the client read everything before the close.
            var pollDescriptor = pollfd(fd: connection, events: Int16(POLLIN), revents: 0)
            if poll(&pollDescriptor, 1, 5_000) > 0 { _ = read(connection, &buffer, buffer.count) }
        }
    }

    /// Sends all of `bytes`; false when the client has gone.
    private static func write(_ bytes: Data, to connection: Int32) -> Bool {
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(connection, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
                if written < 0, errno == EINTR { continue }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// A port on 127.0.0.1 that nothing listens on, outside the range the
    /// kernel gives listeners on port 0, so no other test's server takes it.
    package static func closedPort() throws -> UInt16 {
        var ports = FreePorts()
        guard let port = ports.next() else { throw LoopbackError("no free port below the ephemeral range") }
        return UInt16(port)
    }
}

/// One request as the server read it: its request line and header fields.
package struct ReceivedRequest: Sendable {
    /// `GET /path?query HTTP/1.1`
    package let line: String
    package let headerFields: [(name: String, value: String)]

    init(head: String) {
        let lines = head.components(separatedBy: "\r\n")
        line = lines.first ?? ""
        headerFields = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
    }

    /// The method: `GET`.
    package var method: String { line.components(separatedBy: " ").first ?? "" }
    /// The path and query as sent: `/path?query`.
    package var target: String { line.components(separatedBy: " ").dropFirst().first ?? "" }

    /// The value of the header field `name` (any case), if it was sent.
    package func value(forHeaderField name: String) -> String? {
        headerFields.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

/// The requests a server received, in order, and the tests waiting for one.
private final class ReceivedRequests: Sendable {
    private struct State {
        var requests: [ReceivedRequest] = []
        var waiters: [(number: Int, continuation: CheckedContinuation<ReceivedRequest, Never>)] = []
    }

    private let state = Mutex(State())

    var all: [ReceivedRequest] { state.withLock { $0.requests } }

    func append(_ request: ReceivedRequest) {
        let ready = state.withLock { state in
            state.requests.append(request)
            let count = state.requests.count
            let ready = state.waiters.filter { $0.number <= count }.map { ($0.continuation, state.requests[$0.number - 1]) }
            state.waiters.removeAll { $0.number <= count }
            return ready
        }
        for (continuation, request) in ready { continuation.resume(returning: request) }
    }

    func request(_ number: Int) async -> ReceivedRequest {
        await withCheckedContinuation { continuation in
            let arrived = state.withLock { state -> ReceivedRequest? in
                if number <= state.requests.count { return state.requests[number - 1] }
                state.waiters.append((number, continuation))
                return nil
            }
            if let arrived { continuation.resume(returning: arrived) }
        }
    }
}
