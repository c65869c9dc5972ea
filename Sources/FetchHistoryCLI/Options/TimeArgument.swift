import FetchHistory

/// A point in time on the command line: an ISO 8601 date or date-time
/// (local time unless it has a zone), or a duration meaning that long ago.
///
/// Options parse it with `transform: TimeArgument.init(parsing:)`, so that
/// argument-parser says why a value is refused.
struct TimeArgument {
    var timestamp: Timestamp

    static let forms = "2026-11-22, 2026-11-22T10:00:00 (local time), 2026-11-22T10:00:00Z or +01:00, "
        + "or a duration ago such as 15m, 2h, 7d"

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
        if let timestamp = Timestamp(iso8601: text) {
            self.timestamp = timestamp
        } else if case .success(let ago) = DurationArgument.parse(text) {
            timestamp = Timestamp.now.advanced(by: .zero - ago)
        } else {
            let looksLikeADate = text.first?.isNumber == true && text.contains("-")
            throw looksLikeADate ? .notADate : .notADateOrDuration
        }
    }
}
