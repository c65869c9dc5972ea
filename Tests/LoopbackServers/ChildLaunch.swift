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
