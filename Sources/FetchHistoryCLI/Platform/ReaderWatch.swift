import Dispatch
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// Tells when the reader of standard output has gone (`fetch | head -1`),
/// even while nothing is being written.
///
/// A write finds out (EPIPE) only after the next fetch has ended and been
/// recorded; `fetch` must stop at once instead, with the fetch in flight
/// cancelled. Linux reports the write end of a pipe whose last reader
/// closed as `POLLERR`, which `poll` returns even when asked for no event —
/// so one thread sits in `poll` until then, and costs nothing meanwhile.
///
/// ```swift
/// let watch = ReaderWatch(descriptor: STDOUT_FILENO) { task.cancel() }
/// // later, on EPIPE from a write:
/// watch.readerLeft()
/// if watch.hasReaderLeft { /* end quietly */ }
/// ```
final class ReaderWatch: Sendable {
    private let left = Mutex(false)
    private let onGone: @Sendable () -> Void

    /// Watches `descriptor` when it is a pipe or a socket (a terminal or a
    /// file has no reader to lose), and calls `onGone` once, from a thread
    /// of its own, when its last reader has gone.
    init(descriptor: Int32, onGone: @escaping @Sendable () -> Void) {
        self.onGone = onGone
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFIFO || kind == S_IFSOCK else { return }
        DispatchQueue(label: "fetch-history.reader-watch").async { [self] in
            var watched = pollfd(fd: descriptor, events: 0, revents: 0)
            while true {
                let ready = poll(&watched, 1, -1)
                if ready < 0 {
                    if errno == EINTR { continue }
                    return
                }
                // POLLERR or POLLHUP: the reader left. POLLNVAL (closed
                // here): nothing is left to watch.
                if watched.revents & Int16(POLLERR | POLLHUP) != 0 { readerLeft() }
                if watched.revents != 0 { return }
            }
        }
    }

    /// Watches standard output, the one output whose reader `fetch` must
    /// notice leaving.
    static func standardOutput(onGone: @escaping @Sendable () -> Void) -> ReaderWatch {
        ReaderWatch(descriptor: STDOUT_FILENO, onGone: onGone)
    }

    /// The reader has gone, as a write found out (EPIPE) or `poll` did:
    /// calls `onGone` the first time.
    func readerLeft() {
        let isFirst = left.withLock { left in
            defer { left = true }
            return !left
        }
        if isFirst { onGone() }
    }

    /// Whether the reader has gone.
    var hasReaderLeft: Bool { left.withLock { $0 } }
}
