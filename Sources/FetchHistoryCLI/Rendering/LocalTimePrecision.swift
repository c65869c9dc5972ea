import FetchHistory
import FoundationEssentials

/// How much of a local start time a table shows: a narrow screen drops the
/// date, or the year, that every row on it shares with today.
enum LocalTimePrecision {
    /// `2026-11-25 16:45:03`
    case dateAndTime
    /// `11-25 16:45:03`: every row is from this year.
    case monthDayAndTime
    /// `16:45:03`: every row is from today.
    case time

    /// The least that still tells `times` apart from today's.
    static func sharedWithToday(_ times: [Timestamp], in timeZone: TimeZone?) -> Self {
        let today = Timestamp.now.localDescription(in: timeZone)
        let days = times.map { $0.localDescription(in: timeZone).prefix(10) }
        if days.allSatisfy({ $0 == today.prefix(10) }) { return .time }
        if days.allSatisfy({ $0.prefix(4) == today.prefix(4) }) { return .monthDayAndTime }
        return .dateAndTime
    }

    /// `timestamp` in local time to this precision.
    func describe(_ timestamp: Timestamp, in timeZone: TimeZone?) -> String {
        let whole = timestamp.localDescription(in: timeZone)
        return switch self {
        case .dateAndTime: whole
        case .monthDayAndTime: String(whole.dropFirst(5))
        case .time: String(whole.dropFirst(11))
        }
    }
}
