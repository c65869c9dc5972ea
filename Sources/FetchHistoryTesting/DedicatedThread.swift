import Foundation

/// Runs `work` on a new thread and returns its result, leaving the threads of
/// Swift's cooperative pool free while it runs.
///
/// Every test in a process shares that pool, and it has one thread per core:
/// two on a two-core machine. A test that computes for seconds without
/// suspending (an exhaustive loop, a multi-megabyte input) holds one of them
/// the whole time, and two such tests stop every other task in the process
/// until they end: on a loaded machine that was 20 s in which no other test's
/// awaited step could run, long enough for each `withTimeout` to expire. A
/// thread of its own is preempted by the system like any other, so the pool
/// keeps running beside it.
///
/// ```swift
/// let reads = try await runOnDedicatedThread {
///     try (1...data.count).map { chunkSize in try read(data, chunkSize: chunkSize) }
/// }
/// for (chunkSize, fetches) in zip(1..., reads) { #expect(fetches == expected, "chunk size \(chunkSize)") }
/// ```
///
/// Keep `#expect` out of `work`: Swift Testing finds the running test
/// through task-local values, which a new thread does not have.
public func runOnDedicatedThread<T: Sendable, Failure: Error>(
    _ work: @escaping @Sendable () throws(Failure) -> T
) async throws(Failure) -> T {
    let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, Failure>, Never>) in
        Thread { continuation.resume(returning: Result(catching: work)) }.start()
    }
    return try result.get()
}
