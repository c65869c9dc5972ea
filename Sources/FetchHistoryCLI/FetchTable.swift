import FetchHistory
import FoundationEssentials

/// Fetches as aligned text rows. Columns have fixed widths so rows can be
/// printed as they are read, however many there are.
struct FetchTable {
    var color: Bool
    /// The zone times are shown in; nil for the user's.
    var timeZone: TimeZone?

    private static let resultWidth = 40

    var header: String {
        "ID".padded(to: 8) + "  " + "STARTED".padded(to: 19) + "  " + "DURATION".padded(to: 9, right: true) + "  "
            + "OUTCOME".padded(to: 11) + "  " + "HTTP".padded(to: 4) + "  " + "BYTES".padded(to: 7, right: true) + "  "
            + "RESULT".padded(to: Self.resultWidth) + "  SOURCE"
    }

    func row(_ fetch: Fetch) -> String {
        let duration = fetch.durationMilliseconds.map(DurationArgument.format(milliseconds:)) ?? "-"
        return String(fetch.id.lowercased.prefix(8)) + "  " + fetch.startedAt.localDescription(in: timeZone) + "  "
            + duration.padded(to: 9, right: true) + "  " + paint(fetch.status.rawValue.padded(to: 11), fetch.status) + "  "
            + (fetch.response.map { String($0.status) } ?? "-").padded(to: 4) + "  "
            + (fetch.response.map { String($0.bytes) } ?? "-").padded(to: 7, right: true) + "  "
            + Self.result(of: fetch).terminalSafe.shortened(to: Self.resultWidth).padded(to: Self.resultWidth) + "  "
            + fetch.source.terminalSafe
    }

    /// The value, the error, or why it was cancelled.
    static func result(of fetch: Fetch) -> String {
        switch fetch.outcome {
        case .succeeded(let value)?: value.json
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
}
