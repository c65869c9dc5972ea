import ArgumentParser
import FetchHistory
import FoundationEssentials

/// A limit on a figure of `stats` that CI fails on (`--threshold`), as k6
/// has them: a figure, a comparison and a limit — `failure-rate<1%`,
/// `p95<500ms`, `count>=100`.
///
/// Rates are over the fetches the source decided (succeeded, failed or
/// timed out: the success rate's denominator); durations are the
/// nearest-rank percentiles of succeeded fetches, as `stats` gives them. A
/// figure there is nothing to measure for (a percentile with no succeeded
/// fetch, a rate when the source decided none) crosses its threshold: a
/// check with no evidence does not pass.
struct Threshold: Hashable, Sendable, CustomStringConvertible {
    enum Figure: String, CaseIterable, Sendable {
        case count, failures, timeouts
        case failureRate = "failure-rate", timeoutRate = "timeout-rate", successRate = "success-rate"
        case p50, p90, p95, p99, max

        /// What kind of limit it takes.
        var kind: Kind {
            switch self {
            case .count, .failures, .timeouts: .count
            case .failureRate, .timeoutRate, .successRate: .rate
            case .p50, .p90, .p95, .p99, .max: .duration
            }
        }

        enum Kind { case count, rate, duration }
    }

    enum Comparison: String, CaseIterable, Sendable {
        case atMost = "<=", atLeast = ">=", below = "<", above = ">"

        func holds<T: Comparable>(_ value: T, _ limit: T) -> Bool {
            switch self {
            case .below: value < limit
            case .atMost: value <= limit
            case .above: value > limit
            case .atLeast: value >= limit
            }
        }
    }

    /// A figure's value, or its limit, in its own unit.
    enum Amount: Hashable, Sendable {
        case count(Int)
        /// `numerator ÷ denominator`, kept whole so that 1 of 100 is exactly 1%.
        case rate(numerator: Int64, denominator: Int64)
        case duration(Duration)
    }

    var figure: Figure
    var comparison: Comparison
    var limit: Amount
    /// The limit as it was typed, to print it back (`500ms`, `0.5%`).
    var limitText: String
    /// Decimals a rate is printed with: one more than the limit has, at least one.
    var ratePlaces = 1

    var description: String { "\(figure.rawValue)\(comparison.rawValue)\(limitText)" }

    /// The threshold `text` states, or why it states none.
    init(parsing text: String) throws(ParseError) {
        let trimmed = Self.trimmed(text[...])
        // The first comparison sign, two characters if a `=` follows it.
        guard let sign = trimmed.firstIndex(where: { $0 == "<" || $0 == ">" }) else { throw .noComparison }
        let after = trimmed.index(after: sign)
        let end = after < trimmed.endIndex && trimmed[after] == "=" ? trimmed.index(after: after) : after
        let comparison = Comparison(rawValue: String(trimmed[sign..<end]))!
        let name = Self.trimmed(trimmed[..<sign])
        let limitText = Self.trimmed(trimmed[end...])
        guard let figure = Figure(rawValue: name.lowercased()) else { throw .unknownFigure(name) }
        self.figure = figure
        self.comparison = comparison
        self.limitText = limitText
        switch figure.kind {
        case .count:
            guard let count = Int(limitText), count >= 0 else { throw .notACount(figure) }
            limit = .count(count)
        case .rate:
            // A percentage written with its sign: a bare 0.01 could mean 1% or 0.01%.
            guard limitText.hasSuffix("%") else { throw .notARate(figure) }
            let number = limitText.dropLast()
            let parts = number.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard (1...2).contains(parts.count), parts.allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }),
                  parts.joined().count <= 12, let whole = Int64(parts.joined())
            else { throw .notARate(figure) }
            let decimals = parts.count == 2 ? parts[1].count : 0
            var denominator: Int64 = 100
            for _ in 0..<decimals { denominator *= 10 }
            limit = .rate(numerator: whole, denominator: denominator)
            ratePlaces = Swift.max(1, decimals + 1)
        case .duration:
            guard case .success(let duration) = DurationArgument.parse(limitText) else { throw .notADuration(figure) }
            limit = .duration(duration)
        }
    }

    /// `text` without the spaces around it.
    private static func trimmed(_ text: Substring) -> String {
        String(text.drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }

    /// Why a text is not a threshold: each names what was expected.
    enum ParseError: Error, CustomStringConvertible, Equatable {
        case noComparison
        case unknownFigure(String)
        case notACount(Figure)
        case notARate(Figure)
        case notADuration(Figure)

        var description: String {
            switch self {
            case .noComparison:
                "a threshold is a figure, then <, <=, > or >=, then a limit: p95<500ms, failure-rate<1%, count>=100"
            case .unknownFigure(let name):
                "'\(String(name.prefix(30)).terminalSafe)' is not a figure a threshold takes; use "
                    + Figure.allCases.dropLast().map(\.rawValue).joined(separator: ", ") + " or max"
            case .notACount(let figure): "\(figure.rawValue) takes a whole number, such as \(figure.rawValue)>=100"
            case .notARate(let figure): "\(figure.rawValue) takes a percentage with its %, such as \(figure.rawValue)<1% or <0.5%"
            case .notADuration(let figure): "\(figure.rawValue) takes a duration with its unit, such as \(figure.rawValue)<500ms or <2s"
            }
        }
    }

    /// The figure's value in `counts` and `latency`; nil when there is
    /// nothing to measure.
    func value(counts: [FetchStatus: Int], latency: HistoryStatistics.Latency?) -> Amount? {
        let decided = Int64(HistoryStatistics.decidedBySource.reduce(0) { $0 + counts[$1, default: 0] })
        func rate(_ status: FetchStatus) -> Amount? {
            decided == 0 ? nil : .rate(numerator: Int64(counts[status, default: 0]), denominator: decided)
        }
        func duration(_ milliseconds: KeyPath<HistoryStatistics.Latency, Int64>) -> Amount? {
            latency.map { .duration(.milliseconds($0[keyPath: milliseconds])) }
        }
        return switch figure {
        case .count: .count(counts.values.reduce(0, +))
        case .failures: .count(counts[.failed, default: 0])
        case .timeouts: .count(counts[.timedOut, default: 0])
        case .failureRate: rate(.failed)
        case .timeoutRate: rate(.timedOut)
        case .successRate: rate(.succeeded)
        case .p50: duration(\.p50)
        case .p90: duration(\.p90)
        case .p95: duration(\.p95)
        case .p99: duration(\.p99)
        case .max: duration(\.max)
        }
    }

    /// Whether `value` is on the right side of the limit; no value never is.
    func isMet(by value: Amount?) -> Bool {
        switch (value, limit) {
        case (.count(let count)?, .count(let limit)): comparison.holds(count, limit)
        case (.duration(let duration)?, .duration(let limit)): comparison.holds(duration, limit)
        case (.rate(let a, let b)?, .rate(let c, let d)):
            // a/b against c/d, exactly: a·d against c·b (both denominators positive).
            comparison.holds(Int128(a) * Int128(d), Int128(c) * Int128(b))
        default: false
        }
    }
}

/// `--threshold EXPR`, repeatable, for `stats`, `fetch`, and the JUnit of
/// `export` and `report`.
struct ThresholdOption: ParsableArguments {
    @Option(
        name: .customLong("threshold"),
        help: ArgumentHelp(
            "Exit 99 when a figure crosses this limit: failure-rate<1%, p95<500ms, count>=100 (repeatable).",
            discussion: """
                Figures: count, failures, timeouts, failure-rate, timeout-rate, success-rate (percentages of the \
                fetches the source decided: succeeded, failed or timed out), p50, p90, p95, p99, max (durations \
                of succeeded fetches). Comparisons: <, <=, >, >=. Quote it: the shell reads < and > itself.
                """,
            valueName: "EXPR"
        ),
        transform: Threshold.init(parsing:)
    )
    var thresholds: [Threshold] = []
}

