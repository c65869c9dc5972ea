import Foundation
import Testing
import FetchHistory

/// What `replay --live` performs: the recorded taps and cancels, in order,
/// with where to wait for the source before keeping the recorded gap.
@Suite struct LiveReplayPlanTests {
    static let origin = Timestamp(millisecondsSince1970: 1_795_341_600_000)

    /// A fetch tapped `tapped` ms after the origin, ended by `cause` at `ended` ms (nil: never ended).
    static func fetch(tapped: Int64, ended: Int64? = nil, by cause: FetchEnd.Cause = .answer(1), timeout: Int64? = nil) -> Fetch {
        let end = ended.map { FetchScript.End(cause: cause, at: origin.advanced(by: .milliseconds($0))) }
        return Fetch(
            id: UUID(), sessionID: UUID(), source: "random", startedAt: origin.advanced(by: .milliseconds(tapped)),
            script: FetchScript(tappedAt: origin.advanced(by: .milliseconds(tapped)), timeoutMilliseconds: timeout, end: end)
        )
    }

    @Test func eachTapAfterTheLastFetchEndedWaitsForItsOwnFetchThenKeepsTheGap() {
        // Given fetches tapped one after another's end, as `fetch --count` records them
        let fetches = [Self.fetch(tapped: 0, ended: 100), Self.fetch(tapped: 150, ended: 260, by: .failure("503")), Self.fetch(tapped: 300, ended: 400)]

        // When they are planned
        let plan = LiveReplayPlan(fetches: fetches, origin: Self.origin)

        // Then every tap but the first waits for the previous end, recorded at 100 and 260 ms
        #expect(plan.steps == [
            .init(at: .zero, action: .tap),
            .init(at: .milliseconds(150), action: .tap, previousEnd: .milliseconds(100)),
            .init(at: .milliseconds(300), action: .tap, previousEnd: .milliseconds(260)),
        ])
    }

    @Test func aTapThatSupersededAFetchInFlightHappensAtItsMomentWithoutWaiting() {
        // Given a fetch superseded by a second tap, and a fetch tapped after a superseded one ended
        let fetches = [Self.fetch(tapped: 0, ended: 50, by: .fetchTap), Self.fetch(tapped: 50, ended: 120)]

        // When they are planned
        let plan = LiveReplayPlan(fetches: fetches, origin: Self.origin)

        // Then the second tap does not wait: it supersedes again whatever is in flight
        #expect(plan.steps == [.init(at: .zero, action: .tap), .init(at: .milliseconds(50), action: .tap)])
    }

    @Test func aCancelIsPlannedAtItsMomentAndBeforeATapOfTheSameMillisecond() {
        // Given a fetch cancelled at 80 ms, the next tapped in that same millisecond, recorded in any order
        let fetches = [Self.fetch(tapped: 80, ended: 90), Self.fetch(tapped: 0, ended: 80, by: .cancelTap)]

        // When they are planned
        let plan = LiveReplayPlan(fetches: fetches, origin: Self.origin)

        // Then taps come in time order, and the cancel before the tap that shares its millisecond
        #expect(plan.steps == [
            .init(at: .zero, action: .tap),
            .init(at: .milliseconds(80), action: .cancel),
            .init(at: .milliseconds(80), action: .tap, previousEnd: .milliseconds(80)),
        ])
    }

    @Test func fetchesWithoutAScriptAreLeftOutAndTheTimeoutIsTheFirstFetchs() {
        // Given a fetch recorded before scripts were kept, then two with a 5 s timeout
        var unscripted = Self.fetch(tapped: 0, ended: 10)
        unscripted.script = nil
        let fetches = [unscripted, Self.fetch(tapped: 20, timeout: 5_000), Self.fetch(tapped: 30, timeout: 5_000)]

        // When they are planned
        let plan = LiveReplayPlan(fetches: fetches, origin: Self.origin)

        // Then only the scripted ones are tapped (the last never ended, so none waits), under their timeout
        #expect(plan.steps == [.init(at: .milliseconds(20), action: .tap), .init(at: .milliseconds(30), action: .tap)])
        #expect(plan.timeout == .seconds(5))
    }
}
