import FetchHistoryModel
import FoundationEssentials

/// How the report writes times, durations, outcomes and a fetch's details:
/// times in UTC (the page says so), as a reader anywhere sees the same page.
enum ReportFormat {
    /// `2025-11-25 19:15:15.955` (UTC).
    static func time(_ time: Timestamp) -> String {
        // Split at the T rather than counted: a year past 9999, or before year 1, is not four digits.
        let iso = time.iso8601
        let date = iso.prefix { $0 != "T" }
        return date + " " + iso.dropFirst(date.count + 1).dropLast()
    }

    static func duration(_ milliseconds: Int64) -> String {
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 {
            let hundredths = (milliseconds + 5) / 10
            // 59.995 s rounds to a minute, written as one.
            if hundredths == 6_000 { return "1 min 0 s" }
            let fraction = String(hundredths % 100)
            return "\(hundredths / 100).\(fraction.count == 1 ? "0" + fraction : fraction) s"
        }
        let seconds = milliseconds / 1_000
        if seconds < 3_600 { return "\(seconds / 60) min \(seconds % 60) s" }
        if seconds < 86_400 { return "\(seconds / 3_600) h \(seconds % 3_600 / 60) min" }
        return "\(seconds / 86_400) d \(seconds % 86_400 / 3_600) h"
    }

    /// A bucket's bound: `0`, `250 ms`, `2.5 s`, `1 min`.
    static func shortDuration(_ milliseconds: Int64) -> String {
        if milliseconds == 0 { return "0" }
        if milliseconds < 1_000 { return "\(milliseconds) ms" }
        if milliseconds < 60_000 {
            return milliseconds % 1_000 == 0 ? "\(milliseconds / 1_000) s" : "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100) s"
        }
        return "\(milliseconds / 60_000) min"
    }

    static func word(_ status: FetchStatus) -> String {
        status == .timedOut ? "timed out" : status.rawValue
    }

    static func className(_ status: FetchStatus) -> String { "o-\(status.rawValue)" }

    /// The outcome in words: `cancelled (user)`, `failed`.
    static func outcome(of fetch: Fetch) -> String {
        fetch.cancelReason.map { "cancelled (\($0.rawValue))" } ?? word(fetch.status)
    }

    /// One line a screen reader reads for a bar.
    static func label(of fetch: Fetch) -> String {
        "\(outcome(of: fetch)), started \(time(fetch.startedAt))" + (fetch.durationMilliseconds.map { ", \(duration($0))" } ?? "")
    }

    /// What hovering or focusing a bar shows: id, source, outcome, value or error, HTTP status, bytes.
    /// A line each; recorded text is cut and its line breaks shown as `\n`, so it cannot pose as a line
    /// of its own, and a long source is cut as the tables cut it (each bar carries its details twice).
    static func details(of fetch: Fetch) -> String {
        func line(_ text: String, limit: Int = HTMLText.limit) -> String {
            shortened(text, limit: limit).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
        }
        var lines = [
            "fetch \(fetch.id.uuidString.lowercased())",
            "\(outcome(of: fetch)) · \(line(fetch.source, limit: sourceLimit))",
            "started \(time(fetch.startedAt)) UTC" + (fetch.durationMilliseconds.map { " · \(duration($0))" } ?? ""),
        ]
        if let value = fetch.value { lines.append("value \(line(value.json))") }
        if let error = fetch.errorMessage { lines.append("error \(line(error))") }
        if case .timedOut = fetch.outcome, let timeout = fetch.script?.timeoutMilliseconds { lines.append("timeout \(duration(timeout))") }
        if case .interrupted = fetch.outcome { lines.append("the recording process ended before the fetch did") }
        if let response = fetch.response { lines.append("HTTP \(response.status) · \(response.bytes == 1 ? "1 byte" : "\(count(response.bytes)) bytes")") }
        if let body = fetch.response?.body {
            let type = body.contentType.map { " · \(line($0, limit: sourceLimit))" } ?? ""
            lines.append("body\(type)\(body.isTruncated ? " · truncated" : "") \(line(body.text))")
        }
        if !fetch.host.isEmpty { lines.append("host \(line(fetch.host, limit: sourceLimit))") }
        return lines.joined(separator: "\n")
    }

    /// How much of a source or host name the page shows.
    static let sourceLimit = 120

    /// At most `limit` characters, the rest counted (escaping is the page's).
    static func shortened(_ text: String, limit: Int = HTMLText.limit) -> String {
        text.count > limit ? String(text.prefix(limit)) + "… (\(text.count - limit) more characters)" : text
    }

    /// A count with thousands separated: `1,000,022`.
    static func count(_ number: Int) -> String {
        let digits = String(number)
        return digits.enumerated().map { index, digit in
            index > 0 && (digits.count - index) % 3 == 0 ? ",\(digit)" : String(digit)
        }.joined()
    }

    static func percent(_ rate: Double) -> String {
        let tenths = Int((rate * 1000).rounded())
        return "\(tenths / 10).\(tenths % 10)%"
    }
}
