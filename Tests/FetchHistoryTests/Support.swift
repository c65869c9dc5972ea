import FetchHistory
import FetchHistoryTesting
import Foundation

/// A failure a stub source reports, with a message the screen shows.
struct SourceFailure: Error, LocalizedError {
    var message: String
    var errorDescription: String? { message }
}

/// A recorder whose store is broken: every write fails.
struct FailingRecorder: FetchRecorder {
    struct DiskFull: Error, CustomStringConvertible {
        var description: String { "database or disk is full" }
    }
    func record(_ start: FetchStart) throws { throw DiskFull() }
    func record(_ end: FetchEnd) throws { throw DiskFull() }
}

extension FetchEnd.Cause {
    /// The cause a live view state would record for `outcome`.
    static func typical(of outcome: FetchOutcome) -> FetchEnd.Cause {
        switch outcome {
        case .succeeded(let value): .answer(value)
        case .failed(let message): .failure(message)
        case .cancelled(.user), .cancelled(.terminated), .interrupted: .cancelTap
        case .cancelled(.superseded): .fetchTap
        case .timedOut: .timeout
        }
    }
}

/// Suspends until the calling task is cancelled, then throws
/// `CancellationError`: a server that never answers.
func waitUntilCancelled() async throws -> Never {
    let (stream, continuation) = AsyncStream<Void>.makeStream()
    defer { continuation.finish() }
    for await _ in stream {}
    throw CancellationError()
}

/// A fresh temporary folder, removed by the caller.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "fetch-history-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A recorder that holds each transition until the test lets it through, to
/// look at the view state while a start or an end is being written.
struct GatedRecorder: FetchRecorder {
    let starts = ContinuationStub<FetchStart, Void>()
    let ends = ContinuationStub<FetchEnd, Void>()

    func record(_ start: FetchStart) async throws { try await starts.call(start) }
    func record(_ end: FetchEnd) async throws { try await ends.call(end) }
}

extension ManualClock {
    /// Steps a run of `count` fetches whose source sleeps `latency` on this
    /// clock, `interval` apart: each sleep is advanced past once it has begun.
    func step(fetches count: Int, latency: Duration, interval: Duration) async throws {
        for index in 0..<count {
            if index > 0 {
                try await waitUntilSleeping()
                advance(by: interval)
            }
            try await waitUntilSleeping()
            advance(by: latency)
        }
    }
}
