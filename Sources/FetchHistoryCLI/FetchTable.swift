import FetchHistory
import Foundation

/// Fetches as aligned text rows. Columns have fixed widths so rows can be
/// printed as they are read, however many there are.
struct FetchTable {
    var color: Bool
    var timeZone: TimeZone = .current

    private static let resultWidth = 40

    var header: String {
        pad("ID", 8) + "  " + pad("STARTED", 19) + "  " + pad("DURATION", 9, right: true) + "  "
            + pad("OUTCOME", 11) + "  " + pad("HTTP", 4) + "  " + pad("BYTES", 7, right: true) + "  "
            + pad("RESULT", Self.resultWidth) + "  SOURCE"
    }

    func row(_ fetch: Fetch) -> String {
        let duration = fetch.durationMilliseconds.map(DurationArgument.format(milliseconds:)) ?? "-"
        return String(fetch.id.lowercased.prefix(8)) + "  " + fetch.startedAt.localDescription(in: timeZone) + "  "
            + pad(duration, 9, right: true) + "  " + paint(pad(fetch.status.rawValue, 11), fetch.status) + "  "
            + pad(fetch.response.map { String($0.status) } ?? "-", 4) + "  "
            + pad(fetch.response.map { String($0.bytes) } ?? "-", 7, right: true) + "  "
            + pad(Self.truncate(Self.result(of: fetch).terminalSafe, to: Self.resultWidth), Self.resultWidth) + "  "
            + fetch.source.terminalSafe
    }

    /// The value, the error, or why it was cancelled.
    static func result(of fetch: Fetch) -> String {
        switch fetch.outcome {
        case .succeeded(let value)?: String(value)
        case .failed(let message)?: message
        case .cancelled(.user)?: "by the user"
        case .cancelled(.superseded)?: "superseded by a newer fetch"
        case .timedOut?, .interrupted?, nil: "-"
        }
    }

    private func paint(_ text: String, _ status: FetchStatus) -> String {
        guard color else { return text }
        let code = switch status {
        case .succeeded: "32"
        case .failed: "31"
        case .cancelled, .timedOut: "33"
        case .interrupted: "35"
        case .running: "36"
        }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }

    private func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }

    private static func truncate(_ text: String, to width: Int) -> String {
        text.count <= width ? text : text.prefix(width - 1) + "…"
    }
}
