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
    /// What went wrong (`Problem`'s key): only the fetches that did not
    /// succeed have one, so a group of problems holds those alone. Keyed in
    /// Swift, never by SQL: `ProblemTally` counts them.
    case problem

    /// The key of a week: the local date of its Monday, from the local
    /// date `day` (`2026-11-22` → `2026-11-16`).
    public static func weekKey(ofDay day: Substring) -> String {
        guard let days = CivilTime(key: day)?.days else { return String(day) }
        // 1970-01-01 was a Thursday: three days after a Monday.
        let monday = days - ((days % 7 + 7 + 3) % 7)
        return CivilTime(minutes: monday * 1_440).key(.day)
    }

    /// Every key of this time grouping from `first` through `last`, those
    /// with no fetches included: the buckets of `stats --over`. Steps are
    /// civil (one hour after `2026-11-22 23:00` is `2026-11-23 00:00`,
    /// whatever the clocks did that night). Nil for a grouping that is not
    /// time, for keys that are not this grouping's, or when there would be
    /// more than `limit` keys.
    public func keys(from first: String, through last: String, limit: Int) -> [String]? {
        let step: Int64 = switch self {
        case .minute: 1
        case .hour: 60
        case .day: 1_440
        case .week: 10_080
        case .source, .outcome, .host, .session, .status, .problem: 0
        }
        guard step > 0, let start = CivilTime(key: first[...]), let end = CivilTime(key: last[...]),
              start.minutes <= end.minutes, (end.minutes - start.minutes) / step < Int64(limit)
        else { return nil }
        return stride(from: start.minutes, through: end.minutes, by: Int(step)).map { CivilTime(minutes: $0).key(self) }
    }
}

/// A local date and time as written in a grouping's key, counted in
/// minutes since 1970-01-01 00:00 of the proleptic Gregorian calendar with
/// no time zone: what `stats --over` steps through.
private struct CivilTime {
    var minutes: Int64

    var days: Int64 { minutes >= 0 ? minutes / 1_440 : (minutes - 1_439) / 1_440 }

    init(minutes: Int64) { self.minutes = minutes }

    /// `2026-11-22`, `2026-11-22 14:00` or `2026-11-22 14:05`.
    init?(key: Substring) {
        let fields = key.split(whereSeparator: { $0 == "-" || $0 == " " || $0 == ":" })
        guard fields.count == 3 || fields.count == 5 else { return nil }
        let numbers = fields.compactMap { Int64($0) }
        guard numbers.count == fields.count, (1...12).contains(numbers[1]), (1...31).contains(numbers[2]) else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let year = numbers[1] <= 2 ? numbers[0] - 1 : numbers[0]
        let era = (year >= 0 ? year : year - 399) / 400
        let yearOfEra = year - era * 400
        let dayOfYear = (153 * (numbers[1] + (numbers[1] > 2 ? -3 : 9)) + 2) / 5 + numbers[2] - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        minutes = (era * 146_097 + dayOfEra - 719_468) * 1_440
        if numbers.count == 5 {
            guard (0..<24).contains(numbers[3]), (0..<60).contains(numbers[4]) else { return nil }
            minutes += numbers[3] * 60 + numbers[4]
        }
    }

    /// The key of `grouping` this time falls in; `Timestamp` writes the
    /// digits, read as UTC since a civil time has no zone.
    func key(_ grouping: StatisticsGrouping) -> String {
        let text = Timestamp(millisecondsSince1970: minutes * 60_000).iso8601
        return switch grouping {
        case .minute: text.prefix(10) + " " + text.dropFirst(11).prefix(5)
        case .hour: text.prefix(10) + " " + text.dropFirst(11).prefix(2) + ":00"
        default: String(text.prefix(10))
        }
    }
}
