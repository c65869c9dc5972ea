import Foundation
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
