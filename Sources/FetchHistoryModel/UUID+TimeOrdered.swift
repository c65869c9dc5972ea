import FoundationEssentials
import Synchronization

extension UUID {
    /// A new id whose text sorts by when it was made, for a new fetch or
    /// session: its row then lands next to the previous one in the `id`
    /// index (and a session's fetches next to each other in
    /// `fetch_by_session`) instead of at a random place, so writing it
    /// touches pages that are already in the cache.
    ///
    /// The layout is RFC 9562's UUIDv7 with the timestamp's two halves
    /// swapped, so it is marked version 8 ("custom", §5.8):
    ///
    /// ```
    /// llllllll-hhhh-8rrr-Vrrr-rrrrrrrrrrrr
    /// l: the low 32 bits of the Unix time in milliseconds   h: its high 16 bits
    /// 8: the version   V: the variant (binary 10), then random bits
    /// ```
    ///
    /// A plain UUIDv7 starts with the time's high bits, which change only
    /// every 65 seconds: every fetch of a run would show the same 8
    /// characters in `list` and share them as a `show` prefix. Starting with
    /// the low bits keeps the first 8 characters different for ids made in
    /// different milliseconds, and still in time order within each span of
    /// 2³² ms (49.7 days); each span starts again at the low end of the
    /// index, still at one place at a time. Within one process the
    /// millisecond is made strictly increasing (an id made in the same
    /// millisecond as the last takes the next one), so its ids never share
    /// their first 8 characters. 74 random bits keep ids of different
    /// processes and machines apart.
    ///
    /// The text is still a lower-case UUID: exports, imports and prefix
    /// lookups treat it like any other.
    ///
    /// ```swift
    /// let id = UUID.timeOrdered()   // e.g. 9c3e5a21-019a-8f3b-b1c4-6e0d2a7f9b35
    /// ```
    @usableFromInline package static func timeOrdered() -> UUID {
        let milliseconds = TimeOrderedClock.next(after: UInt64(truncatingIfNeeded: Timestamp.now.millisecondsSince1970))
        var random = SystemRandomNumberGenerator()
        let high = random.next() as UInt64
        let low = random.next() as UInt64
        let bytes = (
            UInt8(truncatingIfNeeded: milliseconds >> 24), UInt8(truncatingIfNeeded: milliseconds >> 16),
            UInt8(truncatingIfNeeded: milliseconds >> 8), UInt8(truncatingIfNeeded: milliseconds),
            UInt8(truncatingIfNeeded: milliseconds >> 40), UInt8(truncatingIfNeeded: milliseconds >> 32),
            0x80 | UInt8(truncatingIfNeeded: high >> 60), UInt8(truncatingIfNeeded: high >> 52),
            0x80 | UInt8(truncatingIfNeeded: high >> 46) & 0x3F, UInt8(truncatingIfNeeded: high >> 38),
            UInt8(truncatingIfNeeded: low >> 56), UInt8(truncatingIfNeeded: low >> 48),
            UInt8(truncatingIfNeeded: low >> 40), UInt8(truncatingIfNeeded: low >> 32),
            UInt8(truncatingIfNeeded: low >> 24), UInt8(truncatingIfNeeded: low >> 16)
        )
        return UUID(uuid: bytes)
    }
}

/// The last millisecond an id was made for in this process.
private enum TimeOrderedClock {
    private static let last = Atomic<UInt64>(0)

    /// `now`, or one past the last millisecond used if that is not earlier:
    /// strictly increasing across threads.
    static func next(after now: UInt64) -> UInt64 {
        var previous = last.load(ordering: .relaxed)
        while true {
            let next = max(now, previous + 1)
            let (exchanged, current) = last.compareExchange(
                expected: previous, desired: next, ordering: .relaxed
            )
            if exchanged { return next }
            previous = current
        }
    }
}
