#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The pause between two tries of a write that found the database locked
/// by another process. It blocks the thread it runs on: the store's own
/// queue, never a caller's (the `async` API waits without blocking).
enum RetryPause {
    @Sendable static func sleep(microseconds: UInt32) {
        usleep(microseconds)
    }
}
