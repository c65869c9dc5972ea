import FetchHistoryModel

/// Offsets on a clock since this timeline was made, and sleeping until such
/// an offset: the view state's time, and a `StateRecorder`'s. Opens the
/// `any Clock` once, so its users never juggle the clock's instant type.
///
/// Sleeping until an offset, rather than for a duration, is what keeps a
/// test clock deterministic: a sleeper that registers after the test has
/// already advanced past its deadline wakes at once instead of waiting for
/// another advance.
package struct ClockTimeline: Sendable {
    package let now: @Sendable () -> Duration
    package let sleep: @Sendable (Duration) async throws -> Void

    package init(_ clock: any Clock<Duration>) {
        (now, sleep) = Self.open(clock)
    }

    package func sleep(until offset: Duration) async throws {
        try await sleep(offset)
    }

    private static func open<C: Clock>(
        _ clock: C
    ) -> (@Sendable () -> Duration, @Sendable (Duration) async throws -> Void) where C.Duration == Duration {
        let origin = clock.now
        return (
            { origin.duration(to: clock.now) },
            { offset in try await clock.sleep(until: origin.advanced(by: offset), tolerance: nil) }
        )
    }
}
