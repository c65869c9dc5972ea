import Foundation
import Synchronization

/// A listening TCP socket on 127.0.0.1 at a port the kernel picks, for the
/// tests' local servers: the one owner of its descriptor.
///
/// `stop()` (from any thread) and `close()` (by the thread that accepts,
/// when it is done) share one lock, so a stop never shuts down a descriptor
/// number that was closed and then reused by another test's socket; that
/// race made a server of another test refuse connections.
package final class LoopbackListener: Sendable {
    package let port: UInt16
    private let descriptor: Int32
    private let state = Mutex((stopped: false, closed: false))

    /// Close-on-exec under the launch lock, like every descriptor the tests
    /// hold while children are launched, or a child would keep the port or
    /// a connection open.
    /// On 127.0.0.1, or with `ipv6`, on ::1.
    package init(ipv6: Bool = false) throws {
        let family = ipv6 ? AF_INET6 : AF_INET
        let listener = ChildLaunch.lock.withLock { _ in
            let listener = socket(family, Int32(SOCK_STREAM.rawValue), 0)
            if listener >= 0 { ChildLaunch.closeOnExec(listener) }
            return listener
        }
        guard listener >= 0 else { throw LoopbackError("socket: \(String(cString: strerror(errno)))") }
        var storage = sockaddr_storage()
        let size: Int
        if ipv6 {
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_addr = in6addr_loopback
            size = MemoryLayout<sockaddr_in6>.size
            withUnsafeBytes(of: &address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
        } else {
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            size = MemoryLayout<sockaddr_in>.size
            withUnsafeBytes(of: &address) { bytes in withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: bytes) } }
        }
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            Glibc.close(listener)
            throw LoopbackError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        descriptor = listener
        // The port sits at the same place in both families' addresses, after the family.
        port = withUnsafeBytes(of: &storage) { UInt16(bigEndian: $0.load(fromByteOffset: 2, as: UInt16.self)) }
    }

    deinit { close() }

    package var isStopped: Bool { state.withLock { $0.stopped } }

    /// Stops accepting: wakes a `nextConnection()` waiting in `poll`.
    package func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            if !state.closed { shutdown(descriptor, Int32(SHUT_RDWR)) }
        }
    }

    /// Closes the descriptor, once. Called by the thread that accepts, when
    /// it has done, so no `poll` or `accept` runs on a closed number.
    package func close() {
        state.withLock { state in
            guard !state.closed else { return }
            state.closed = true
            Glibc.close(descriptor)
        }
    }

    /// The next connection, close-on-exec; nil once stopped or when the
    /// listener fails. It waits in `poll` first: `accept` runs under the
    /// launch lock, which must never be held while blocked.
    package func nextConnection() -> Int32? {
        var pollDescriptor = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        while !isStopped {
            let ready = poll(&pollDescriptor, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            if ready < 0 || isStopped { return nil }
            let connection = ChildLaunch.lock.withLock { _ in
                let connection = accept(descriptor, nil, nil)
                if connection >= 0 { ChildLaunch.closeOnExec(connection) }
                return connection
            }
            if connection >= 0 { return connection }
            if errno != EINTR && errno != EAGAIN { return nil }
        }
        return nil
    }
}
