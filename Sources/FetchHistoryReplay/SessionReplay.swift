import FetchHistoryModel
import FetchHistoryViewState
import FoundationEssentials

/// Why a session cannot be replayed.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    case noFetches
    /// A fetch was recorded before fetch-history kept scripts.
    case noScript(fetch: Int, id: UUID)
    /// The fetches ran with different timeouts; one view state has one.
    case mixedTimeouts
    /// A recorded answer is not a value of the type the replay drives the
    /// view state with: the session was recorded by another kind of screen.
    case answerIsNotOfType(fetch: Int, type: String, answer: String)

    public var description: String {
        switch self {
        case .noFetches:
            "the session has no fetches to replay"
        case .noScript(let number, let id):
            "fetch \(number) (\(id.lowercased.prefix(8))) was recorded before fetch-history recorded user actions, so the session cannot be replayed"
        case .mixedTimeouts:
            "the session's fetches had different timeouts, which one view state cannot reproduce"
        case .answerIsNotOfType(let number, let type, let answer):
            "fetch \(number)'s recorded answer \(answer.prefix(80)) is not a \(type), so this view state cannot replay the session"
        }
    }
}

/// Re-drives a recorded session through a real `FetchViewState` on a manual
/// clock: the recorded taps and cancels happen at their recorded moments and
/// a scripted source gives the recorded answers at the moments they came.
/// The replay's own fetches are then compared with the recorded outcomes
/// (outcome, value, error, order, and times to the millisecond).
///
/// The script (`Fetch.script`) and the outcome columns are recorded apart,
/// so a history edited afterwards — a changed value, time or order — no
/// longer replays to a match.
///
/// ```swift
/// let replay = try SessionReplay(fetches: recorded, origin: session.startedAt)
/// let report = await replay.run()
/// print(report.matches ? "replay matches \(report.fetchCount) fetches" : report.differences.joined(separator: "\n"))
/// ```
@MainActor
public struct SessionReplay {
    private enum Action {
        case tap, cancel, answer, timeout
    }

    private struct ScriptItem {
        var at: Duration
        var fetch: Int
        var action: Action
        var text: String
        /// Why a `.cancel` cancels: what the recording says (a tap, or the program told to stop).
        var cancelReason = CancelReason.user
    }

    private let recorded: [Fetch]
    private let origin: Timestamp
    private let items: [ScriptItem]
    private let answers: [ScriptedSource.Answer?]
    private let timeout: Duration?
    /// The recorded fetch the replay stops at (interrupted or running), 1-based.
    private let stopsAt: Int?

    /// How long, in real time, the replay waits for the view state to react
    /// to one step before calling the step a difference. A step that reacts
    /// takes milliseconds, but under `swift test` it can queue for seconds
    /// behind every other test (2 s was too little on a loaded machine), so
    /// this is `withTimeout`'s bound: a view state that never reacts is
    /// still found, 30 s later.
    public static let stepLimit: Duration = TimeoutError.defaultLimit

    /// - Parameters:
    ///   - fetches: the session's fetches, in recording order.
    ///   - origin: the session's start; offsets are measured from it.
    public init(fetches: [Fetch], origin: Timestamp) throws(ReplayError) {
        guard !fetches.isEmpty else { throw .noFetches }
        func offset(_ time: Timestamp) -> Duration {
            .milliseconds(time.millisecondsSince1970 - origin.millisecondsSince1970)
        }
        var scripted: [(index: Int, script: FetchScript)] = []
        for (index, fetch) in fetches.enumerated() {
            guard let script = fetch.script else { throw .noScript(fetch: index + 1, id: fetch.id) }
            scripted.append((index, script))
        }
        let timeouts = Set(scripted.map(\.script.timeoutMilliseconds))
        guard timeouts.count == 1 else { throw .mixedTimeouts }

        // The script is the recorded actions in time order; fetches are
        // numbered in the order they were tapped.
        let byTap = scripted.sorted { ($0.script.tappedAt, $0.index) < ($1.script.tappedAt, $1.index) }
        var items: [ScriptItem] = []
        var answers: [ScriptedSource.Answer?] = []
        var stopsAt: Int?
        for (position, entry) in byTap.enumerated() {
            let number = position + 1
            items.append(ScriptItem(at: offset(entry.script.tappedAt), fetch: number, action: .tap, text: "fetch \(number) tapped"))
            var answer: ScriptedSource.Answer?
            switch entry.script.end {
            case nil:
                stopsAt = stopsAt ?? number
            case let end?:
                let at = offset(end.at)
                switch end.cause {
                case .answer(let value):
                    answer = ScriptedSource.Answer(at: at, result: .success(value))
                    items.append(ScriptItem(at: at, fetch: number, action: .answer, text: "fetch \(number) answered \(value)"))
                case .failure(let message):
                    answer = ScriptedSource.Answer(at: at, result: .failure(ReplayedFailure(message: message)))
                    items.append(ScriptItem(at: at, fetch: number, action: .answer, text: "fetch \(number) failed: \(message)"))
                case .cancelTap:
                    let reason = fetches[entry.index].cancelReason ?? .user
                    let text = reason == .terminated ? "program terminated" : "cancel tapped"
                    items.append(ScriptItem(at: at, fetch: number, action: .cancel, text: text, cancelReason: reason))
                case .timeout:
                    items.append(ScriptItem(at: at, fetch: number, action: .timeout, text: "fetch \(number) timed out"))
                case .fetchTap:
                    break  // the next fetch's tap supersedes it
                }
            }
            answers.append(answer)
        }
        // Within one millisecond, causes keep their order: fetch by fetch,
        // each fetch's tap before whatever ended it (a cancel tapped in the
        // same millisecond as its fetch must not come first).
        self.items = items.enumerated().sorted { lhs, rhs in
            (lhs.element.at, lhs.element.fetch, lhs.element.action == .tap ? 0 : 1, lhs.offset)
                < (rhs.element.at, rhs.element.fetch, rhs.element.action == .tap ? 0 : 1, rhs.offset)
        }.map(\.element)
        self.answers = answers
        self.recorded = fetches
        self.origin = origin
        self.timeout = timeouts.first!.map { .milliseconds($0) }
        self.stopsAt = stopsAt
    }

    /// Replays the session in virtual time (instantly) through the library's
    /// view state, whatever the recorded values are, and compares.
    public func run() async -> ReplayReport {
        // Every recorded answer is some JSON value, so this cannot refuse.
        (try? await run(as: JSONValue.self) { replay in
            FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, fetch: replay.fetch)
        }) ?? ReplayReport(steps: [], differences: ["the session could not be replayed"], fetchCount: 0)
    }

    /// Replays the session in virtual time (instantly) through the view state
    /// `makeViewState` builds from the replay's recorder, clock, timeout and
    /// scripted source, and compares.
    ///
    /// - Throws: `ReplayError.answerIsNotOfType` when a recorded answer does
    ///   not decode as `Value`: the session was recorded by another kind of
    ///   screen, so nothing is replayed (never a false match).
    public func run<Value: Codable & Sendable>(
        as type: Value.Type, _ makeViewState: (ReplayEnvironment<Value>) -> FetchViewState<Value>
    ) async throws(ReplayError) -> ReplayReport {
        for (index, answer) in answers.enumerated() {
            guard case .success(let value)? = answer?.result else { continue }
            do {
                _ = try value.decoded(as: Value.self)
            } catch {
                throw .answerIsNotOfType(fetch: index + 1, type: "\(Value.self)", answer: value.json)
            }
        }
        let clock = ManualClock()
        let source = ScriptedSource(answers: answers, clock: clock)
        let recorder = ReplayRecorder()
        let viewState = makeViewState(ReplayEnvironment(
            recorder: recorder, clock: clock, timeout: timeout,
            fetch: { try await source.next().decoded(as: Value.self) }
        ))
        func valueLabel() -> String {
            viewState.value.flatMap { try? FetchValue(encoding: $0).json } ?? viewState.text.notFetched
        }
        var steps: [ReplayReport.Step] = []
        var differences: [String] = []

        // Each fetch's task: done once its end is recorded and shown.
        var tasks: [Task<CompletedFetch, any Error>] = []
        for item in items {
            if let stopsAt, item.fetch > stopsAt { break }
            clock.advance(to: item.at)
            let reacted: Bool
            switch item.action {
            case .tap:
                let superseded = viewState.isProcessing ? tasks.last : nil
                viewState.fetchButtonTapped()
                if let task = viewState.fetchTask { tasks.append(task) }
                reacted = await Self.reacts {
                    await recorder.waitForStarts(item.fetch)
                    _ = await superseded?.result
                }
            case .cancel, .answer, .timeout:
                if item.action == .cancel {
                    // A tap is the user's; a stop is noted first, as the command's signal handler does.
                    if item.cancelReason != .user { viewState.recording.runningFetch?.noteCancel(item.cancelReason) }
                    viewState.cancelButtonTapped()
                }
                let task = item.fetch <= tasks.count ? tasks[item.fetch - 1] : nil
                reacted = await Self.reacts { _ = await task?.result }
            }
            steps.append(ReplayReport.Step(
                offset: item.at, event: item.text, isProcessing: viewState.isProcessing,
                valueLabel: valueLabel(), error: viewState.error
            ))
            if !reacted {
                differences.append("at \(item.at.wholeMilliseconds) ms, \(item.text): the replay did not get there (fetch \(item.fetch) had already ended, or never started)")
                break
            }
        }
        let replayed = recorder.fetches
        // Leave nothing waiting on the manual clock.
        viewState.cancelButtonTapped()

        var stoppedAt: String?
        var compared = recorded.count
        if let stopsAt {
            compared = stopsAt
            let status = recorded.sorted(by: Self.recordingOrder)[stopsAt - 1].status
            stoppedAt = "fetch \(stopsAt) was \(status == .running ? "still running" : "interrupted") when the recording ended: the replay stops there"
        }
        differences += Self.compare(
            recorded: recorded.sorted(by: Self.recordingOrder).prefix(compared).map { fetch in
                ReplayedFetch(
                    start: .milliseconds(fetch.startedAt.millisecondsSince1970 - origin.millisecondsSince1970),
                    end: fetch.endedAt.map { .milliseconds($0.millisecondsSince1970 - origin.millisecondsSince1970) },
                    outcome: fetch.outcome
                )
            },
            replayed: Array(replayed.prefix(compared)),
            lastIsOpen: stopsAt != nil
        )
        return ReplayReport(steps: steps, differences: Array(differences.prefix(10)), fetchCount: compared, stoppedAt: stoppedAt)
    }

    private static func recordingOrder(_ lhs: Fetch, _ rhs: Fetch) -> Bool {
        lhs.startedAt < rhs.startedAt
    }

    /// Differences, fetch by fetch; the last fetch of an interrupted session
    /// is only compared by its start.
    static func compare(recorded: [ReplayedFetch], replayed: [ReplayedFetch], lastIsOpen: Bool) -> [String] {
        var differences: [String] = []
        if recorded.count != replayed.count {
            differences.append("the recording has \(recorded.count) fetches, the replay made \(replayed.count)")
        }
        for (index, (was, now)) in zip(recorded, replayed).enumerated() {
            let number = index + 1
            if was.start != now.start {
                differences.append("fetch \(number) started at \(was.start.wholeMilliseconds) ms in the recording, at \(now.start.wholeMilliseconds) ms in the replay")
            }
            if lastIsOpen, number == recorded.count { continue }
            if !Self.isSame(was.outcome, now.outcome) {
                differences.append("fetch \(number) was \(describe(was.outcome)) in the recording, \(describe(now.outcome)) in the replay")
            }
            if was.end != now.end {
                differences.append("fetch \(number) ended at \(describe(was.end)) in the recording, at \(describe(now.end)) in the replay")
            }
        }
        return differences
    }

    /// Outcomes compare as recorded, values by what they hold (the same
    /// JSON value, whatever its key order).
    static func isSame(_ recorded: FetchOutcome?, _ replayed: FetchOutcome?) -> Bool {
        if case .succeeded(let was)? = recorded, case .succeeded(let now)? = replayed { return was.isSameValue(as: now) }
        return recorded == replayed
    }

    static func describe(_ outcome: FetchOutcome?) -> String {
        switch outcome {
        case nil: "running"
        case .succeeded(let value)?: "succeeded with \(value)"
        case .failed(let message)?: "failed with \"\(message)\""
        case .cancelled(let reason)?: "cancelled (\(reason.rawValue))"
        case .timedOut?: "timed out"
        case .interrupted?: "interrupted"
        }
    }

    static func describe(_ offset: Duration?) -> String {
        offset.map { "\($0.wholeMilliseconds) ms" } ?? "no time"
    }

    /// Whether `step` finishes within `stepLimit` of real time. Matching
    /// replays never come near the limit.
    private static func reacts(_ step: @escaping @MainActor @Sendable () async -> Void) async -> Bool {
        (try? await withTimeout(stepLimit) { await step() }) != nil
    }
}
