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
    /// How much of a failed HTTP answer's body to keep (`--keep-body`).
    let keptBodyBytes: Int
    let store: HistoryStore

    /// Re-runs the session and prints the comparison in `format`.
    func run(format: ReplayFormat) async throws {
        let client = try makeClient()
        let plan = LiveReplayPlan(fetches: fetches, origin: session.startedAt)

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
        // Values, as `fetch` records them: the HTTP source answers any JSON.
        let viewState = FetchViewState(recorder: recorder, clock: clock, timeout: plan.timeout, fetchAnswer: { try await client.fetchValue() })
        try await plan.perform(on: viewState, clock: clock)

        let live = try await store.read { db in Array(try db.fetches(matching: HistoryFilter(sessionID: liveID)).reversed()) }
        let same = zip(fetches, live).filter { $0.status == $1.status }.count
        let output = OutputStream.standardOutput()
        switch format {
        case .text: try output.write(comparison(of: live, in: liveID, same: same) + "\n")
        case .json, .jsonl: try output.write(json(of: live, in: liveID, same: same, lines: format == .jsonl))
        }
        try output.flush()
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
        return try FetchHistoryCommand.http.client(for: url, keepingBody: keptBodyBytes)
    }

    /// The comparison as JSON: `{"session":…,"of":…,"fetches":[{"recorded":…,"live":…}],"same":…,"total":…,"matches":…}`,
    /// or, as `lines`, one object per fetch, then one with the rest.
    private func json(of live: [Fetch], in liveID: UUID, same: Int, lines: Bool) -> String {
        var json = JSONWriter()
        func write(_ fetch: Fetch?) {
            guard let fetch else { return json.null() }
            json.beginObject()
            json.key("outcome")
            json.string(fetch.status.rawValue)
            json.key("value")
            if let value = fetch.value { json.fragment(value.json) } else { json.null() }
            json.key("durationMs")
            if let duration = fetch.durationMilliseconds { json.integer(duration) } else { json.null() }
            json.endObject()
        }
        if !lines {
            json.beginObject()
            json.key("session")
            json.string(liveID.lowercased)
            json.key("of")
            json.string(session.id.lowercased)
            json.key("fetches")
            json.beginArray()
        }
        for index in 0..<max(fetches.count, live.count) {
            json.beginObject()
            json.key("recorded")
            write(index < fetches.count ? fetches[index] : nil)
            json.key("live")
            write(index < live.count ? live[index] : nil)
            json.endObject()
            if lines { json.newline() }
        }
        if lines {
            json.beginObject()
            json.key("session")
            json.string(liveID.lowercased)
            json.key("of")
            json.string(session.id.lowercased)
        } else {
            json.endArray()
        }
        json.key("same")
        json.integer(same)
        json.key("total")
        json.integer(fetches.count)
        json.key("matches")
        json.bool(!fetches.isEmpty && live.count == fetches.count && same == fetches.count)
        json.endObject()
        json.newline()
        return json.text
    }

    /// The recorded and live outcomes side by side, and how many (`same`) agree.
    private func comparison(of live: [Fetch], in liveID: UUID, same: Int) -> String {
        func describe(_ fetch: Fetch?) -> String {
            guard let fetch else { return "-" }
            return fetch.status.rawValue + (fetch.value.map { " \($0)" } ?? "")
                + (fetch.durationMilliseconds.map { " in \(DurationArgument.format(milliseconds: $0))" } ?? "")
        }
        let reRan = "\(live.count) \(live.count == 1 ? "fetch" : "fetches")"
        var lines = ["live session \(liveID.lowercased.prefix(8)) re-ran \(reRan) of session \(session.id.lowercased.prefix(8))",
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
}
