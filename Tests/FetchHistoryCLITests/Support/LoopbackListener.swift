import Foundation

/// A listening TCP socket on 127.0.0.1 at a port the kernel picks, for the
/// tests' local servers.
enum LoopbackListener {
    /// The listening descriptor and its port. Close-on-exec under the
    /// launch lock, like every descriptor the tests hold while children are
    /// launched, or a child would keep the port or a connection open.
    static func open() throws -> (descriptor: Int32, port: UInt16) {
        let listener = FetchHistoryProcess.launchLock.withLock { _ in
            let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            if listener >= 0 { FetchHistoryProcess.closeOnExec(listener) }
            return listener
        }
        guard listener >= 0 else { throw SandboxError("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else {
            close(listener)
            throw SandboxError("bind/listen: \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        return (listener, UInt16(bigEndian: address.sin_port))
    }

    /// The next connection to `listener`, close-on-exec; nil once
    /// `isStopped` says so or the listener fails (it was shut down). It
    /// waits in `poll` first: `accept` runs under the launch lock, which
    /// must never be held while blocked.
    static func nextConnection(on listener: Int32, isStopped: () -> Bool) -> Int32? {
        var pollDescriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        while !isStopped() {
            let ready = poll(&pollDescriptor, 1, 100)
            if ready == 0 || (ready < 0 && errno == EINTR) { continue }
            if ready < 0 || isStopped() { return nil }
            let connection = FetchHistoryProcess.launchLock.withLock { _ in
                let connection = accept(listener, nil, nil)
                if connection >= 0 { FetchHistoryProcess.closeOnExec(connection) }
                return connection
            }
            if connection >= 0 { return connection }
            if errno != EINTR && errno != EAGAIN { return nil }
        }
        return nil
    }
}
