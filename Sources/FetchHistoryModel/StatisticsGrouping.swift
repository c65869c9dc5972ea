/// What `stats --by` breaks the fetches down by.
public enum StatisticsGrouping: String, CaseIterable, Hashable, Sendable {
    /// The source, e.g. `random`.
    case source
    /// The fetch's status: succeeded, failed, …, running.
    case outcome
    /// The local calendar day the fetch started, `2026-11-22`.
    case day
    /// The local hour the fetch started, `2026-11-22 14:00`.
    case hour
    /// The host that recorded the fetch.
    case host
    /// The local minute the fetch started, `2026-11-22 14:05`.
    case minute
    /// The local week the fetch started, named by its Monday, `2026-11-16`.
    case week
    /// The session the fetch belongs to, its id.
    case session
    /// The HTTP status the fetch got, `200`; `-` for none.
    case status

    /// The key of a week: the local date of its Monday, from the local
    /// date `day` (`2026-11-22` → `2026-11-16`).
    public static func weekKey(ofDay day: Substring) -> String {
        let parts = day.split(separator: "-").compactMap { Int64($0) }
        guard parts.count == 3 else { return String(day) }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let year = parts[1] <= 2 ? parts[0] - 1 : parts[0]
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (parts[1] + (parts[1] > 2 ? -3 : 9)) + 2) / 5 + parts[2] - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        // 1970-01-01 was a Thursday: three days after a Monday.
        let monday = days - ((days % 7 + 7 + 3) % 7)
        return String(Timestamp(millisecondsSince1970: monday * 86_400_000).iso8601.prefix(10))
    }
}
