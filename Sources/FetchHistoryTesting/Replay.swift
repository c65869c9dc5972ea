import FetchHistory
import FoundationEssentials

/// Replays a session from exported history (`fetch-history export`, json or
/// jsonl) through a real `FetchViewState`, so a bug seen in the field becomes
/// a test.
///
/// ```swift
/// @MainActor @Test func theFieldReportReplays() async throws {
///     let exported = try Data(contentsOf: Bundle.module.url(forResource: "field-report", withExtension: "jsonl")!)
///     let report = try await SessionReplay.replay(exported: exported, as: User.self) { replay in
///         FetchViewState(recorder: replay.recorder, clock: replay.clock, timeout: replay.timeout, fetch: replay.fetch)
///     }
///     #expect(report.matches, "\(report.differences)")
/// }
/// ```
extension SessionReplay {
    /// Replays the session through the view state `makeViewState` builds:
    /// yours, over your value type.
    ///
    /// - Parameter session: which session of the export; by default the one
    ///   whose first fetch was tapped last.
    /// - Throws: `ReplayError` when the session cannot be replayed (no
    ///   script, or answers that are not `Value`s), the reader's error when
    ///   the export is malformed.
    @MainActor
    public static func replay<Value: Codable & Sendable>(
        exported: Data, session: UUID? = nil, as type: Value.Type,
        _ makeViewState: (ReplayEnvironment<Value>) -> FetchViewState<Value>
    ) async throws -> ReplayReport {
        let (fetches, origin) = try Self.session(session, in: exported)
        return try await SessionReplay(fetches: fetches, origin: origin).run(as: type, makeViewState)
    }

    /// Replays the session through the library's view state, whatever the
    /// recorded values are.
    @MainActor
    public static func replay(exported: Data, session: UUID? = nil) async throws -> ReplayReport {
        let (fetches, origin) = try Self.session(session, in: exported)
        return await (try SessionReplay(fetches: fetches, origin: origin)).run()
    }

    /// The chosen session's fetches, and its origin: an export has no
    /// session start, so offsets count from the first tap.
    private static func session(_ session: UUID?, in exported: Data) throws -> ([Fetch], Timestamp) {
        var sessions: [UUID: [Fetch]] = [:]
        try FetchRecordReader(data: exported).forEach { sessions[$0.sessionID, default: []].append($0) }
        func firstTap(_ fetches: [Fetch]) -> Timestamp {
            fetches.map { $0.script?.tappedAt ?? $0.startedAt }.min() ?? Timestamp(millisecondsSince1970: 0)
        }
        let id = session ?? sessions.max { firstTap($0.value) < firstTap($1.value) }?.key
        guard let id, let fetches = sessions[id] else { throw ReplayError.noFetches }
        return (fetches, firstTap(fetches))
    }
}
