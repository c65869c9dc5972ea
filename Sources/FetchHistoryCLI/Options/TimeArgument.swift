import ArgumentParser
import FetchHistory

/// A point in time on the command line: an ISO 8601 date or date-time
/// (local time unless it has a zone), `now`, `today` (the local midnight
/// that started today), `yesterday` (the local midnight before it), or a
/// duration meaning that long ago.
///
/// Options parse it with `transform: TimeArgument.init(parsing:)`, so that
/// argument-parser says why a value is refused, and with `parsing:
/// .unconditional`, so that `-2h` reaches `validate()` and is refused the
/// way every negative number is (`refuseNegative(_:option:)`).
struct TimeArgument {
    var timestamp: Timestamp
    /// The text it was parsed from, for the sentences that refuse it.
    var text: String
    /// Whether it was a negative duration (`-2h`): a time, but one no
    /// option takes.
    var isNegativeDuration = false

    static let forms = "2026-11-22, 2026-11-22T10:00:00 (local time), 2026-11-22T10:00:00Z or +01:00, "
        + "now, today, yesterday, or a duration ago such as 15m, 2h, 7d"

    /// The moment every relative time on this command line counts from:
    /// read once, so that `--since now --until now` name the same moment
    /// whatever order they are parsed in.
    static let now = Timestamp.now

    /// Why a text is not a time.
    enum ParseError: Error, CustomStringConvertible, Equatable {
        /// It looks like a date (digits and dashes) but is none: 2026-13-45.
        case notADate
        case notADateOrDuration

        var description: String {
            switch self {
            case .notADate: "not a date that exists in a form this tool reads; use \(TimeArgument.forms)"
            case .notADateOrDuration: "not a date or a duration; use \(TimeArgument.forms)"
            }
        }
    }

    /// The time `text` says, or why it says none.
    init(parsing text: String) throws(ParseError) {
        self.text = text
        if let timestamp = Timestamp(iso8601: text) {
            self.timestamp = timestamp
        } else if let named = Self.named(text.lowercased()) {
            timestamp = named
        } else if case .success(let ago) = DurationArgument.parse(text) {
            timestamp = Self.now.advanced(by: .zero - ago)
        } else if text.hasPrefix("-"), case .success(let ahead) = DurationArgument.parse(String(text.dropFirst())) {
            timestamp = Self.now.advanced(by: ahead)
            isNegativeDuration = true
        } else {
            let looksLikeADate = text.first?.isNumber == true && text.contains("-")
            throw looksLikeADate ? .notADate : .notADateOrDuration
        }
    }

    /// `now`, `today` or `yesterday`; nil for any other word.
    private static func named(_ word: String) -> Timestamp? {
        switch word {
        case "now": now
        case "today": localMidnight(startingTheDayOf: now)
        // The midnight before today's: the day before may be 23 or 25
        // hours long where clocks change.
        case "yesterday": localMidnight(startingTheDayOf: localMidnight(startingTheDayOf: now).advanced(by: .milliseconds(-1)))
        default: nil
        }
    }

    /// The local midnight that starts the day `time` falls on: its local
    /// date, read back as a date without a time.
    private static func localMidnight(startingTheDayOf time: Timestamp) -> Timestamp {
        Timestamp(iso8601: String(time.localDescription().prefix(10))) ?? time
    }

    /// Refuses a negative duration the way every numeric option refuses a
    /// negative number: `--since must be a date or a duration of 0 or more, not -2h`.
    static func refuseNegative(_ time: TimeArgument?, option: String) throws {
        guard let time, time.isNegativeDuration else { return }
        throw ValidationError("\(option) must be a date or a duration of 0 or more, not \(time.text)")
    }

    /// Refuses a range that ends before it starts, which no fetch or
    /// session can be in, rather than let it list nothing; and a negative
    /// duration for either end.
    static func validateRange(since: TimeArgument?, until: TimeArgument?) throws {
        try refuseNegative(since, option: "--since")
        try refuseNegative(until, option: "--until")
        guard let since, let until, since.timestamp >= until.timestamp else { return }
        // --until is the first moment left out: a range ending where it starts is empty too.
        throw ValidationError(
            since.timestamp > until.timestamp
                ? "the range is empty because it ends before it starts: --since \(since.text) is later than --until \(until.text)"
                : "the range is empty because it ends where it starts: --since \(since.text) is the moment --until \(until.text) is"
        )
    }
}
