/// One state a `StateRecorder` recorded, at its offset on the recorder's
/// clock: an item of a timeline, the way RxTest's `next(150, "abc")` is.
///
/// ```swift
/// #expect(recorder.events == [
///     .next(.zero, Screen(isProcessing: false, number: nil)),
///     .next(.zero, Screen(isProcessing: true, number: nil)),
///     .next(.milliseconds(150), Screen(isProcessing: false, number: 42)),
/// ])
/// ```
public struct Recorded<State: Equatable & Sendable>: Equatable, Sendable, CustomStringConvertible {
    /// On the recorder's clock, since the recorder was made (zero without a clock).
    public var offset: Duration
    public var state: State

    public init(offset: Duration, state: State) {
        self.offset = offset
        self.state = state
    }

    /// `state`, recorded at `offset`.
    public static func next(_ offset: Duration, _ state: State) -> Recorded {
        Recorded(offset: offset, state: state)
    }

    public var description: String {
        ".next(\(offset), \(state))"
    }
}
