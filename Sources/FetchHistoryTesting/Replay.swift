import FetchHistory
import FoundationEssentials

/// Replays a session from exported history (`fetch-history export`, json or
/// jsonl) through a real `FetchViewState`, so a bug seen in the field becomes
/// a test.
///
/// ```swift
/// @MainActor @Test func theFieldReportReplays() async throws {
///     let exported = try Data(contentsOf: Bundle.module.url(forResource: "field-report", withExtension: "jsonl")!)
///     let report = try await SessionReplay.replay(exported: exported)
///     #expect(report.matches, "\(report.differences)")
/// }
/// ```
///
/// - Parameter session: which session of the export; by default the one
///   whose first fetch was tapped last.
extension SessionReplay {
@MainActor
public static func replay(exported: Data, session: UUID? = nil) async throws -> ReplayReport {
    var sessions: [UUID: [Fetch]] = [:]
    try FetchRecordReader(data: exported).forEach { sessions[$0.sessionID, default: []].append($0) }
    func firstTap(_ fetches: [Fetch]) -> Timestamp {
        fetches.map { $0.script?.tappedAt ?? $0.startedAt }.min() ?? Timestamp(millisecondsSince1970: 0)
    }
    let id = session ?? sessions.max { firstTap($0.value) < firstTap($1.value) }?.key
    guard let id, let fetches = sessions[id] else { throw ReplayError.noFetches }
    // An export has no session start: offsets count from the first tap.
    return try await SessionReplay(fetches: fetches, origin: firstTap(fetches)).run()
}
}
