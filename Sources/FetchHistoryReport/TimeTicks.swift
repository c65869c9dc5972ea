import FetchHistoryModel

/// The times a stretch of the timeline marks, and how each is written: round
/// times, as a person reads an axis, never a stretch's width cut into equal
/// parts (which put marks at 16:09 and 21:02).
///
/// The step is the shortest of the usual ones — 1, 2, 5, 10 … ms; 1, 2, 5,
/// 10, 15, 30 s and min; 1, 2, 3, 6, 12 h; 1 and 2 days; a week (from
/// Monday); 1, 3 and 6 months; 1, 2, 5, 10 … years — that leaves no more
/// marks than the stretch has room for. All in UTC, as the page is.
///
/// A mark is written as short as it can be and still say what changed: `14:30`
/// on the half hour, `11-25` at midnight, `2025-04` on the first of a month,
/// `2026` on New Year's Day. A stretch's first mark says its whole date, so
/// each stretch reads on its own, after a fold too, and so does the first
/// mark of a new year that does not fall on New Year's Day.
///
/// ```swift
/// let ticks = TimeTicks.times(from: start, to: end, atMost: 8)
/// let labels = ticks.indices.map { TimeTicks.label(ticks[$0], after: $0 == 0 ? nil : ticks[$0 - 1]) }
/// ```
enum TimeTicks {
    private static let second: Int64 = 1_000
    private static let minute: Int64 = 60_000
    private static let hour: Int64 = 3_600_000
    private static let day: Int64 = 86_400_000

    /// Multiples of a length of time, or first days of months.
    private enum Step {
        /// Every `length` ms after `offset` ms since 1970.
        case fixed(length: Int64, offset: Int64)
        /// The first day of every `months`-th month, counted from January of year 0.
        case months(Int64)
    }

    private static let steps: [Step] = {
        let milliseconds: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500]
        let seconds: [Int64] = [1, 2, 5, 10, 15, 30].map { $0 * second }
        let minutes: [Int64] = [1, 2, 5, 10, 15, 30].map { $0 * minute }
        let hours: [Int64] = [1, 2, 3, 6, 12].map { $0 * hour }
        let days: [Int64] = [1, 2].map { $0 * day }
        let fixed = (milliseconds + seconds + minutes + hours + days).map { Step.fixed(length: $0, offset: 0) }
        // 1970-01-01 was a Thursday: weeks start four days later, on Mondays.
        let week = Step.fixed(length: 7 * day, offset: 4 * day)
        let years: [Int64] = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1_000, 2_000, 5_000, 10_000]
        return fixed + [week] + ([1, 3, 6] + years.map { $0 * 12 }).map(Step.months)
    }()

    /// Round times from `from` to `to` (ms since 1970), at most `count` of
    /// them and at least one: the shortest step that fits.
    static func times(from: Int64, to: Int64, atMost count: Int) -> [Int64] {
        let count = max(1, count)
        var denser: [Int64] = []
        for step in steps {
            let times = times(of: step, from: from, to: to, limit: count + 1)
            if times.count <= count {
                // A step that fits can miss a short stretch altogether: then the
                // first time of the step before it, which has one.
                return times.isEmpty ? Array(denser.prefix(1)) : times
            }
            denser = times
        }
        return Array(denser.prefix(count))
    }

    /// The times of `step` from `from` to `to`; no more than `limit`.
    private static func times(of step: Step, from: Int64, to: Int64, limit: Int) -> [Int64] {
        var times: [Int64] = []
        switch step {
        case .fixed(let length, let offset):
            let (quotient, remainder) = (from - offset).floorDivided(by: length)
            var time = offset + (remainder == 0 ? quotient : quotient + 1) * length
            while time <= to, times.count < limit {
                times.append(time)
                time += length
            }
        case .months(let months):
            let (year, month, _) = Timestamp.civilDate(daysSince1970: from.floorDivided(by: day).quotient)
            // The first month that starts at or after `from`, then up to a multiple of the step.
            var index = year * 12 + month - 1
            if startOfMonth(index) < from { index += 1 }
            let (quotient, remainder) = index.floorDivided(by: months)
            index = (remainder == 0 ? quotient : quotient + 1) * months
            while startOfMonth(index) <= to, times.count < limit {
                times.append(startOfMonth(index))
                index += months
            }
        }
        return times
    }

    /// Midnight UTC of the first day of month `index` (months since January of year 0).
    private static func startOfMonth(_ index: Int64) -> Int64 {
        let (year, month) = index.floorDivided(by: 12)
        return Timestamp.daysSince1970(year: year, month: month + 1, day: 1) * day
    }

    /// `time` written as short as it can be and still say what changed since
    /// the mark `previous`; with its whole date when it is a stretch's first
    /// (no `previous`).
    static func label(_ time: Int64, after previous: Int64?) -> String {
        let (days, milliseconds) = time.floorDivided(by: day)
        let (year, month, dayOfMonth) = Timestamp.civilDate(daysSince1970: days)
        let date = "\(year)-\(two(month))-\(two(dayOfMonth))"
        let clockMinutes = "\(two(milliseconds / hour)):\(two(milliseconds % hour / minute))"
        let clock: String? = if milliseconds % second != 0 {
            clockMinutes + ":\(two(milliseconds % minute / second)).\(three(milliseconds % second))"
        } else if milliseconds % minute != 0 {
            clockMinutes + ":\(two(milliseconds % minute / second))"
        } else if milliseconds != 0 {
            clockMinutes
        } else {
            nil
        }
        guard let previous else { return clock.map { "\(date) \($0)" } ?? date }
        let newYear = Timestamp.civilDate(daysSince1970: previous.floorDivided(by: day).quotient).year != year
        if let clock { return newYear ? "\(date) \(clock)" : clock }
        if dayOfMonth != 1 { return newYear ? date : "\(two(month))-\(two(dayOfMonth))" }
        if month != 1 { return "\(year)-\(two(month))" }
        return "\(year)"
    }

    private static func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    private static func three(_ value: Int64) -> String { value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)" }
}
