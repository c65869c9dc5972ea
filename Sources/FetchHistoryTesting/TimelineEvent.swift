import FetchHistory

/// One transition in a recorded session, at its offset from the session's
/// start: what a test asserts to prove the whole sequence was recorded.
///
/// ```swift
/// #expect(try await recorder.timeline() == [
///     .started(at: .zero),
///     .ended(.succeeded(42), at: .milliseconds(150)),
/// ])
/// ```
public struct TimelineEvent: Hashable, Sendable, CustomStringConvertible {
    /// Which fetch of the session: 1 for the first started, 2 for the next, ….
    public var fetch: Int
    /// Milliseconds since the session started.
    public var offset: Duration
    /// Nil for the start, the outcome for the end.
    public var outcome: FetchOutcome?

    public static func started(_ fetch: Int = 1, at offset: Duration) -> TimelineEvent {
        TimelineEvent(fetch: fetch, offset: offset, outcome: nil)
    }

    public static func ended(_ outcome: FetchOutcome, at offset: Duration) -> TimelineEvent {
        ended(1, outcome, at: offset)
    }

    public static func ended(_ fetch: Int, _ outcome: FetchOutcome, at offset: Duration) -> TimelineEvent {
        TimelineEvent(fetch: fetch, offset: offset, outcome: outcome)
    }

    public var description: String {
        let what = outcome.map { "ended \($0)" } ?? "started"
        return "fetch \(fetch) \(what) at \(offset.wholeMilliseconds) ms"
    }
}

extension Database {
    /// Every start and end recorded in `session`, in time order; ties keep
    /// recording order, a fetch's start before its end.
    public func timeline(of session: Session) throws -> [TimelineEvent] {
        let fetches = try fetches(matching: HistoryFilter(sessionID: session.id)).reversed()
        let origin = session.startedAt.millisecondsSince1970
        var events: [TimelineEvent] = []
        for (index, fetch) in fetches.enumerated() {
            events.append(.started(index + 1, at: .milliseconds(fetch.startedAt.millisecondsSince1970 - origin)))
            if let outcome = fetch.outcome, let end = fetch.endedAt {
                events.append(.ended(index + 1, outcome, at: .milliseconds(end.millisecondsSince1970 - origin)))
            }
        }
        return events.enumerated().sorted { lhs, rhs in
            (lhs.element.offset, lhs.offset) < (rhs.element.offset, rhs.offset)
        }.map(\.element)
    }
}

extension HistoryRecorder {
    /// A recorder over a new in-memory store, its session started at the
    /// epoch so recorded times read as plain offsets.
    public static func inMemory(source: String = "stub") async throws -> HistoryRecorder {
        try await HistoryRecorder(store: .inMemory(), source: source, startedAt: Timestamp(millisecondsSince1970: 0))
    }

    /// The recorded starts and ends of this recorder's session.
    public func timeline() async throws -> [TimelineEvent] {
        let session = self.session
        return try await store.read { db in try db.timeline(of: session) }
    }
}
