import ArgumentParser
import FetchHistory
import FoundationEssentials

/// A duration on the command line: `250ms`, `2s`, `1.5s`, `1m30s`, `1h`,
/// `7d`, `3w`, or `0`. Units go from the largest to the smallest, each at
/// most once.
///
/// An option parses it with `transform: DurationArgument.init(parsing:)`,
/// so that argument-parser says why a value is refused: "The value '5' is
/// invalid for '--timeout <duration>': a duration needs a unit: …".
///
/// A minus sign is read too (`-5s` is a negative duration), for the
/// option's `validate()` to refuse with `refuseNegative(_:option:)` in the
/// words every numeric option uses, `--interval must be 0 or more, not
/// -5s`: a reason given by the transform would come after argument-parser's
/// own "The value … is invalid" instead. Such an option parses
/// `.unconditional`ly, so that `-5s` is its value and not an unknown option.
struct DurationArgument: Hashable {
    var duration: Duration

    init(_ duration: Duration) {
        self.duration = duration
    }

    /// The duration `text` says (negative after a `-`), or why it says none.
    init(parsing text: String) throws(ParseError) {
        if text.hasPrefix("-"), case .success(let magnitude) = Self.parse(String(text.dropFirst())) {
            duration = .zero - magnitude
        } else {
            duration = try Self.parse(text).get()
        }
    }

    /// Refuses a negative duration the way every numeric option refuses a
    /// negative number: `--interval must be 0 or more, not -5s`.
    static func refuseNegative(_ value: DurationArgument?, option: String) throws {
        guard let value, value.duration < .zero else { return }
        throw OptionBounds.refusal(option, least: 0, given: value.description)
    }

    /// Largest first: the order they must come in, and the order `format`
    /// writes them in.
    static let units: [(suffix: String, milliseconds: Int64)] = [
        ("w", 604_800_000), ("d", 86_400_000), ("h", 3_600_000), ("m", 60_000), ("s", 1_000), ("ms", 1),
    ]

    static let examples = "e.g. 500ms, 2s, 1.5s, 1m30s, 2h, 7d, 3w"

    /// Why a text is not a duration.
    enum ParseError: Error, CustomStringConvertible, Equatable {
        case negative
        case missingUnit(number: String)
        case unknownUnit(String)
        case outOfOrder
        case tooLong
        case notADuration

        var description: String {
            switch self {
            case .negative: "a duration cannot be negative"
            case .missingUnit(let number): "a duration needs a unit: \(number)ms, \(number)s, \(number)m, \(number)h, \(number)d or \(number)w"
            case .unknownUnit(let unit): "'\(unit.prefix(20))' is not a unit; use ms, s, m, h, d or w (\(DurationArgument.examples))"
            case .outOfOrder: "units go from the largest to the smallest, each once (\(DurationArgument.examples))"
            case .tooLong: "that is longer than any duration this tool handles"
            case .notADuration: "a duration is a number and a unit (\(DurationArgument.examples))"
            }
        }
    }

    static func parse(_ text: String) -> Result<Duration, ParseError> {
        if text == "0" { return .success(.zero) }
        if text.hasPrefix("-") { return .failure(.negative) }
        var rest = Substring(text)
        var total: Double = 0
        var lastUnit = -1
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let value = Double(number) else { return .failure(.notADuration) }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { $0.isLetter }
            guard !unit.isEmpty else {
                return .failure(rest.isEmpty && total == 0 ? .missingUnit(number: String(number)) : .notADuration)
            }
            guard let index = units.firstIndex(where: { $0.suffix == unit }) else {
                return .failure(.unknownUnit(String(unit)))
            }
            guard index > lastUnit else { return .failure(.outOfOrder) }
            lastUnit = index
            rest = rest.dropFirst(unit.count)
            total += value * Double(units[index].milliseconds)
        }
        guard total.isFinite else { return .failure(.tooLong) }
        guard total < 1e15 else { return .failure(.tooLong) }
        return .success(.milliseconds(Int64(total.rounded())))
    }
}

/// For an option with a default value, which argument-parser shows in the
/// help only for an `ExpressibleByArgument` type (`--interval`: "(default:
/// 1s)"). Refused here, a value gets no reason from argument-parser:
/// `FetchHistoryCommand.reason(for:given:)` adds it.
extension DurationArgument: ExpressibleByArgument {
    init?(argument: String) {
        try? self.init(parsing: argument)
    }
}

extension DurationArgument: CustomStringConvertible {
    /// As it would be typed; also how a default shows in `--help` (`1s`).
    var description: String {
        duration < .zero ? "-" + Self.argument(milliseconds: (.zero - duration).wholeMilliseconds)
            : Self.argument(milliseconds: duration.wholeMilliseconds)
    }

    /// The shortest form `parse` reads back exactly: `250ms`, `1s`, `1m30s`,
    /// `1h`, `1.5s`. For what the user gives and sees as a setting.
    static func argument(milliseconds: Int64) -> String {
        if milliseconds == 0 { return "0" }
        var rest = milliseconds
        var text = ""
        for (suffix, scale) in units where scale >= 60_000 && rest >= scale {
            text += "\(rest / scale)\(suffix)"
            rest %= scale
        }
        guard rest > 0 else { return text }
        if rest < 1000, text.isEmpty { return "\(rest)ms" }
        var fraction = digits(rest % 1000, 3)
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return text + "\(rest / 1000)" + (fraction.isEmpty ? "" : ".\(fraction)") + "s"
    }

    /// `250ms`, `1.002s`, `2m03.500s`: a measured time, exact to the
    /// millisecond, every second with three decimals so a column of them
    /// lines up. `parse` reads it back too.
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
