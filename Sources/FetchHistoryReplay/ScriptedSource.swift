import FetchHistoryModel
import FetchHistoryViewState
import FoundationEssentials

/// The source as a recording saw it: the n-th call answers what the n-th
/// fetch's source answered, at the moment it answered, on the replay clock.
/// A call whose fetch never got an answer (cancelled, timed out,
/// interrupted) waits until it is cancelled.
actor ScriptedSource {
    struct Answer {
        var at: Duration
        var result: Result<FetchValue, ReplayedFailure>
    }

    private let answers: [Answer?]
    private let clock: ManualClock
    private(set) var callCount = 0

    init(answers: [Answer?], clock: ManualClock) {
        self.answers = answers
        self.clock = clock
    }

    func next() async throws -> FetchValue {
        callCount += 1
        let call = callCount
        guard call <= answers.count, let answer = answers[call - 1] else {
            // No answer was recorded: wait for the cancel, timeout or end of the replay.
            try await clock.sleep(until: ManualClock.Instant(offset: .seconds(Int64.max / 4)))
            throw CancellationError()
        }
        try await clock.sleep(until: ManualClock.Instant(offset: answer.at))
        return try answer.result.get()
    }
}

/// A failure the source reported in the recording, with its message.
struct ReplayedFailure: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

extension ReplayedFailure: LocalizedError {
    var errorDescription: String? { message }
}
