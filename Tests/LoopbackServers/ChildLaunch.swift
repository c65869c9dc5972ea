import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Where the tests launch child processes and make descriptors: every test
/// target runs in one process, so the lock is shared by all of them.
package enum ChildLaunch {
    /// Held while a child is launched, and while any descriptor that is not
    /// yet close-on-exec exists in this process: Glibc's module has no
    /// `pipe2` or `accept4`, so descriptors are made then marked, and no
    /// spawn may happen in between, or the child would inherit them (and
    /// hold another test's pipe or socket open).
    package static let lock = Mutex(())

    /// Launches `process` under `lock`, from this thread with no signal
    /// blocked. A child inherits the launching thread's signal mask
    /// (Foundation's `Process` does not reset it), and the tests' threads
    /// block almost every signal: children started with SIGINT, SIGTERM and
    /// SIGCHLD blocked, unlike anything a shell starts (a `sh` child's
    /// `wait` never returned).
    package static func run(_ process: Process, beforeLaunch: () -> Void = {}) throws {
        try lock.withLock { _ in
            var none = sigset_t()
            sigemptyset(&none)
            var saved = sigset_t()
            pthread_sigmask(SIG_SETMASK, &none, &saved)
            defer { pthread_sigmask(SIG_SETMASK, &saved, nil) }
            beforeLaunch()
            try process.run()
        }
    }

    /// Marks `descriptor` close-on-exec. Call under `lock`.
    package static func closeOnExec(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, fcntl(descriptor, F_GETFD) | FD_CLOEXEC)
    }
}

/// A loopback server could not be set up.
package struct LoopbackError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

extension FileHandle {
    /// The next bytes that arrive (empty at the end), read again when a
    /// signal interrupts the wait: Foundation's `availableData` and
    /// `readDataToEndOfFile()` stop the whole test process on EINTR
    /// ("Interrupted system call"), which a child's SIGCHLD can cause.
    package func nextChunk() -> Data {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = Glibc.read(fileDescriptor, &buffer, buffer.count)
            if count >= 0 { return Data(buffer[..<count]) }
            if errno != EINTR { return Data() }
        }
    }

    /// Everything up to the end, as `nextChunk` reads it.
    package func readUntilEnd() -> Data {
        var data = Data()
        while case let chunk = nextChunk(), !chunk.isEmpty { data.append(chunk) }
        return data
    }
}
