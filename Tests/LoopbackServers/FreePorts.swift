import Foundation
import Synchronization

/// Ports for a test server on 127.0.0.1, each free when handed out and never
/// handed out twice in this process. They are taken below the kernel's
/// ephemeral range (`ip_local_port_range`), where neither a connection's own
/// port nor a listener bound to port 0 lands. (A port from `bind(…, 0)`,
/// checked with a socket children could inherit, was found taken when the
/// server started, on CI.)
package struct FreePorts: Sequence, IteratorProtocol {
    package init() {}

    private static let handedOut = Mutex<Set<Int>>([])

    /// The ports below the ephemeral range, from 10,000 up.
    private static let range: Range<Int> = {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let lowest = text.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        return 10_000..<Swift.max(lowest, 10_001)
    }()

    package mutating func next() -> Int? {
        for _ in 0..<1_000 {
            let port = Int.random(in: Self.range)
            let isNew = Self.handedOut.withLock { $0.insert(port).inserted }
            if isNew, Self.isFree(port) { return port }
        }
        return nil
    }

    /// Whether nothing is bound to `port` on 127.0.0.1 now.
    package static func isFree(_ port: Int) -> Bool {
        guard let socket = bound(to: port) else { return false }
        close(socket)
        return true
    }

    /// A socket bound to `port` on 127.0.0.1, or nil when something else
    /// holds it. Close-on-exec from the start: a child another test launches
    /// meanwhile would otherwise keep the port bound for its whole life.
    package static func bound(to port: Int) -> Int32? {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard socket >= 0 else { return nil }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        let isBound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard isBound else {
            close(socket)
            return nil
        }
        return socket
    }
}
