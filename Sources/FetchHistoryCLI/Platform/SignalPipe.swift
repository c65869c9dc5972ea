#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization

/// SIGINT and SIGTERM as bytes on a pipe (the self-pipe trick: writing to a
/// pipe is one of the few things a signal handler may do), for a program
/// that has something to finish before it exits.
///
/// The handler is installed before `open` returns, so no signal is lost in
/// between. (Dispatch's signal sources, used here before, want the signal
/// ignored while they register on another thread, later: a SIGTERM sent in
/// that gap on a loaded machine was dropped, and the fetch ran on.)
enum SignalPipe {
    /// The write end, for the handler, which cannot capture anything: set
    /// before the handler is installed.
    private static let writeEnd = Atomic<Int32>(-1)

    /// Installs a handler for `signals` that writes each one's number to a
    /// pipe, and returns the pipe's read end (non-blocking), or nil when no
    /// pipe could be made (`errno` says why).
    static func open(for signals: [Int32]) -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            // A full pipe must not block the handler; the reader drains.
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        writeEnd.store(ends[1], ordering: .sequentiallyConsistent)
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in signals {
            signal(number) { number in
                let saved = errno
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(SignalPipe.writeEnd.load(ordering: .relaxed), &byte, 1)
                errno = saved
            }
            sigaddset(&mask, number)
        }
        // A process may start with them blocked (a mask is inherited: a
        // launcher's worker thread often blocks every signal); unblocked
        // here, so they reach the handler.
        pthread_sigmask(SIG_UNBLOCK, &mask, nil)
        return ends[0]
    }
}
