import ArgumentParser
import FetchHistory
import FoundationEssentials

/// `replay --live`: the recorded taps and cancels again, in real time,
/// against the real source, recorded as a new session.
@MainActor
struct LiveReplay {
    let session: Session
    let fetches: [Fetch]
    let latency: Duration?
    let store: HistoryStore

    func run() async throws {
        let client = try makeClient()
        let scripts = fetches.compactMap(\.script).sorted { $0.tappedAt < $1.tappedAt }
        let timeout = scripts.first?.timeoutMilliseconds.map { Duration.milliseconds($0) }

        let (source, originalID) = (session.source, session.id)
        // Begun and marked in one transaction: a re-run killed at any moment
        // is absent or marked, never taken for a session the user recorded.
        let liveSession = try await store.write { db in
            let live = try db.beginSession(source: source)
            try db.markLiveReplay(live.id, of: originalID)
            return live
        }
        let recorder = HistoryRecorder(store: store, session: liveSession)
        let liveID = liveSession.id
        let clock = ContinuousClock()
        let viewState = FetchViewState(client: client, recorder: recorder, clock: clock, timeout: timeout)
        // Where the re-run is on the recording's time line: the moment of the
        // recording that `live` re-enacts.
        var anchor = (live: clock.now, recorded: Duration.zero)
        for step in Step.steps(of: scripts, origin: session.startedAt) {
            if let end = step.previousEnd {
                _ = try? await viewState.fetchTask?.value
                anchor = (clock.now, end)
            }
            try await clock.sleep(until: anchor.live.advanced(by: step.at - anchor.recorded))
            switch step.action {
            case .tap: viewState.fetchButtonTapped()
            case .cancel: viewState.cancelButtonTapped()
            }
        }
        _ = try? await viewState.fetchTask?.value

        let live = try await store.read { db in Array(try db.fetches(matching: HistoryFilter(sessionID: liveID)).reversed()) }
        let same = zip(fetches, live).filter { $0.status == $1.status }.count
        print(comparison(of: live, in: liveID, same: same))
        // Only a full match succeeds: every recorded fetch re-run, none
        // more, each with the same outcome.
        if fetches.isEmpty || live.count != fetches.count || same != fetches.count { throw ExitCode.failure }
    }

    private func makeClient() throws -> any APIClient {
        if session.source == RandomNumberClient.sourceName {
            return RandomNumberClient(latency: latency ?? .seconds(1))
        }
        if session.source.contains("***") {
            throw ReplayError.secretsNotRecorded
        }
        guard let url = URL(string: session.source), ["http", "https"].contains(url.scheme) else {
            throw ReplayError.notFetchableLive(source: session.source)
        }
        guard latency == nil else { throw ValidationError("--latency applies to the random source only") }
        return try FetchHistoryCommand.http.client(for: url)
    }

    /// The recorded and live outcomes side by side, and how many (`same`) agree.
    private func comparison(of live: [Fetch], in liveID: UUID, same: Int) -> String {
        func describe(_ fetch: Fetch?) -> String {
            guard let fetch else { return "-" }
            return fetch.status.rawValue + (fetch.value.map { " \($0)" } ?? "")
                + (fetch.durationMilliseconds.map { " in \(DurationArgument.format(milliseconds: $0))" } ?? "")
        }
        var lines = ["live session \(liveID.lowercased.prefix(8)) re-ran \(live.count) fetches of session \(session.id.lowercased.prefix(8))",
                     "FETCH  RECORDED                  LIVE"]
        for index in 0..<max(fetches.count, live.count) {
            lines.append(String(index + 1).padded(to: 7)
                + describe(index < fetches.count ? fetches[index] : nil).padded(to: 26)
                + describe(index < live.count ? live[index] : nil))
        }
        lines.append("\(same) of \(fetches.count) \(fetches.count == 1 ? "fetch" : "fetches") ended the same way"
            + (live.count > fetches.count ? ", and the re-run made \(live.count - fetches.count) more" : ""))
        return lines.map(\.terminalSafe).joined(separator: "\n")
    }

    /// One recorded tap or cancel, at its offset from the session's start.
    struct Step: Equatable {
        enum Action: Equatable { case tap, cancel }

        var at: Duration
        var action: Action
        /// For a tap that came after the previous fetch had ended by itself
        /// (answered, failed, timed out or cancelled, as `fetch --count` taps
        /// each fetch after the last): that end's offset. The re-run first
        /// waits for its own fetch in flight to end and keeps the recorded
        /// gap from there, so a slower source delays the tap instead of the
        /// tap superseding a fetch the recording never superseded. A tap that
        /// came while a fetch was in flight has none: it happens at its
        /// recorded moment, superseding again whatever is in flight then.
        var previousEnd: Duration?

        static func steps(of scripts: [FetchScript], origin: Timestamp) -> [Step] {
            func offset(_ time: Timestamp) -> Duration {
                .milliseconds(time.millisecondsSince1970 - origin.millisecondsSince1970)
            }
            var steps: [Step] = []
            var previous: FetchScript.End?
            for script in scripts {
                var previousEnd: Duration?
                if let end = previous, end.at <= script.tappedAt {
                    if case .fetchTap = end.cause {} else { previousEnd = offset(end.at) }
                }
                steps.append(Step(at: offset(script.tappedAt), action: .tap, previousEnd: previousEnd))
                if case .cancelTap? = script.end?.cause, let at = script.end?.at {
                    steps.append(Step(at: offset(at), action: .cancel))
                }
                previous = script.end
            }
            // A cancel and a tap at the same millisecond: the cancel came first
            // (a tap would have superseded the fetch, not left it to cancel).
            return steps.enumerated().sorted {
                ($0.element.at, $0.element.action == .tap ? 1 : 0, $0.offset) < ($1.element.at, $1.element.action == .tap ? 1 : 0, $1.offset)
            }.map(\.element)
        }
    }
}
