import ArgumentParser
import FetchHistory
import FoundationEssentials

/// A duration on the command line: `250ms`, `2s`, `1.5s`, `1m`, `1h`, `7d`, or `0`.
struct DurationArgument: ExpressibleByArgument, Hashable {
    var duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    init?(argument: String) {
        guard let duration = Self.parse(argument) else { return nil }
        self.duration = duration
    }

    static let units: [(suffix: String, milliseconds: Double)] = [
        ("ms", 1), ("s", 1_000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ]

    static func parse(_ text: String) -> Duration? {
        if text == "0" { return .zero }
        // "ms" before "m" and "s": the longest suffix wins.
        for (suffix, scale) in units.sorted(by: { $0.suffix.count > $1.suffix.count }) where text.hasSuffix(suffix) {
            let number = text.dropLast(suffix.count)
            guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }),
                  let value = Double(number), value.isFinite, value * scale < 1e15
            else { return nil }
            return .milliseconds(Int64((value * scale).rounded()))
        }
        return nil
    }

    static var defaultCompletionKind: CompletionKind { .default }
}

extension DurationArgument: CustomStringConvertible {
    var description: String { Self.format(milliseconds: duration.wholeMilliseconds) }

    /// `250ms`, `1.002s`, `2m03.500s`: short, exact to the millisecond.
    static func format(milliseconds: Int64) -> String {
        if milliseconds < 1000 { return "\(milliseconds)ms" }
        let seconds = "\(milliseconds / 1000 % 60).\(digits(milliseconds % 1000, 3))s"
        if milliseconds < 60_000 { return seconds }
        return "\(milliseconds / 60_000)m" + (milliseconds % 60_000 < 10_000 ? "0" : "") + seconds
    }

    /// `value` with leading zeros to `count` digits.
    private static func digits(_ value: Int64, _ count: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: Swift.max(0, count - text.count)) + text
    }
}

/// A point in time on the command line: an ISO 8601 date or date-time
/// (local time unless it has a zone), or a duration meaning that long ago.
struct TimeArgument: ExpressibleByArgument {
    var timestamp: Timestamp

    init?(argument: String) {
        if let timestamp = Timestamp(iso8601: argument) {
            self.timestamp = timestamp
        } else if let ago = DurationArgument.parse(argument) {
            timestamp = Timestamp.now.advanced(by: .zero - ago)
        } else {
            return nil
        }
    }
}
