import FoundationEssentials

/// Why a session cannot be replayed.
public enum ReplayError: Error, Equatable, Sendable, CustomStringConvertible {
    case noFetches
    /// A fetch was recorded before fetch-history kept scripts.
    case noScript(fetch: Int, id: UUID)
    /// The fetches ran with different timeouts; one view state has one.
    case mixedTimeouts

    public var description: String {
        switch self {
        case .noFetches:
            "the session has no fetches to replay"
        case .noScript(let number, let id):
            "fetch \(number) (\(id.lowercased.prefix(8))) was recorded before fetch-history recorded user actions, so the session cannot be replayed"
        case .mixedTimeouts:
            "the session's fetches had different timeouts, which one view state cannot reproduce"
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
    }

    private let recorded: [Fetch]
    private let origin: Timestamp
    private let items: [ScriptItem]
    private let answers: [ScriptedClient.Answer?]
    private let timeout: Duration?
    /// The recorded fetch the replay stops at (interrupted or running), 1-based.
    private let stopsAt: Int?

    /// How long, in real time, the replay waits for the view state to react
    /// to one step before calling the step a difference.
    public static let stepLimit: Duration = .seconds(2)

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
        var answers: [ScriptedClient.Answer?] = []
        var stopsAt: Int?
        for (position, entry) in byTap.enumerated() {
            let number = position + 1
            items.append(ScriptItem(at: offset(entry.script.tappedAt), fetch: number, action: .tap, text: "fetch \(number) tapped"))
            var answer: ScriptedClient.Answer?
            switch entry.script.end {
            case nil:
                stopsAt = stopsAt ?? number
            case let end?:
                let at = offset(end.at)
                switch end.cause {
                case .answer(let value):
                    answer = ScriptedClient.Answer(at: at, result: .success(value))
                    items.append(ScriptItem(at: at, fetch: number, action: .answer, text: "fetch \(number) answered \(value)"))
                case .failure(let message):
                    answer = ScriptedClient.Answer(at: at, result: .failure(ReplayedFailure(message: message)))
                    items.append(ScriptItem(at: at, fetch: number, action: .answer, text: "fetch \(number) failed: \(message)"))
                case .cancelTap:
                    items.append(ScriptItem(at: at, fetch: number, action: .cancel, text: "cancel tapped"))
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

    /// Replays the session in virtual time (instantly) and compares.
    public func run() async -> ReplayReport {
        let clock = ManualClock()
        let client = ScriptedClient(answers: answers, clock: clock)
        let recorder = ReplayRecorder()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: timeout)
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
                if item.action == .cancel { viewState.cancelButtonTapped() }
                let task = item.fetch <= tasks.count ? tasks[item.fetch - 1] : nil
                reacted = await Self.reacts { _ = await task?.result }
            }
            steps.append(ReplayReport.Step(
                offset: item.at, event: item.text, isProcessing: viewState.isProcessing,
                numberLabel: viewState.numberLabel, error: viewState.error
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
            if was.outcome != now.outcome {
                differences.append("fetch \(number) was \(describe(was.outcome)) in the recording, \(describe(now.outcome)) in the replay")
            }
            if was.end != now.end {
                differences.append("fetch \(number) ended at \(describe(was.end)) in the recording, at \(describe(now.end)) in the replay")
            }
        }
        return differences
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
