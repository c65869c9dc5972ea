import FoundationEssentials
#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Local time, for people: the one place times meet the user's zone, which
// comes from the C library (`localtime_r`) because with FoundationEssentials
// alone `TimeZone.current` is always GMT.

extension Timestamp {
    /// `yyyy-MM-dd HH:mm:ss` in `timeZone`, or the user's, for tables
    /// people read.
    public func localDescription(in timeZone: TimeZone? = nil) -> String {
        let local = Timestamp(millisecondsSince1970: millisecondsSince1970 + offsetMilliseconds(in: timeZone)).iso8601
        return local.prefix(10) + " " + local.dropFirst(11).prefix(8)
    }

    /// The moment a wall-clock time without a zone names in `timeZone`, or
    /// the user's: `localMilliseconds` is that wall-clock time read as if it
    /// were UTC.
    init(localMilliseconds: Int64, in timeZone: TimeZone?) {
        // The zone's offset at that moment; close enough to look it up at
        // the naive UTC reading, then correct once for a DST edge.
        let guess = Timestamp(millisecondsSince1970: localMilliseconds)
        var offset = guess.offsetMilliseconds(in: timeZone)
        offset = Timestamp(millisecondsSince1970: localMilliseconds - offset).offsetMilliseconds(in: timeZone)
        self.init(millisecondsSince1970: localMilliseconds - offset)
    }

    /// How far `timeZone` is ahead of UTC at this moment. Without a zone,
    /// the user's (`TZ`, else /etc/localtime) from the C library.
    private func offsetMilliseconds(in timeZone: TimeZone?) -> Int64 {
        if let timeZone { return Int64(timeZone.secondsFromGMT(for: date)) * 1000 }
        var seconds = time_t(millisecondsSince1970.floorDivided(by: 1000).quotient)
        var local = tm()
        guard localtime_r(&seconds, &local) != nil else { return 0 }
        return Int64(local.tm_gmtoff) * 1000
    }
}
