import FetchHistory
import FoundationEssentials

/// Fetches as aligned text rows, fitted to the terminal's width.
///
/// Columns have fixed widths once the table is made, so rows can be printed
/// as they come (`fetch`). Given the rows up front (`list`), each column is
/// as wide as its widest cell. Either way, when the width is limited and the
/// rows would not fit, RESULT and SOURCE — the only columns of free text —
/// give up cells, the wider of the two first (RESULT when they are as wide),
/// down to their headers' width.
///
/// A HOST column, before RESULT, appears when the rows come from more than
/// one host (a team's history, or a file it was pulled into).
struct FetchTable {
    var color: Bool
    /// The zone times are shown in; nil for the user's.
    var timeZone: TimeZone?
    /// The columns shown, in order.
    let columns: [Column]
    /// The cells of each column, in order.
    private(set) var widths: [Int]

    /// A column of the table. HOST is shown only when the rows come from
    /// more than one host (a team's history): a file of one machine's
    /// fetches looks as it always did.
    enum Column: CaseIterable {
        case id, started, duration, outcome, http, bytes, host, result, source

        var header: String {
            switch self {
            case .id: "ID"
            case .started: "STARTED"
            case .duration: "DURATION"
            case .outcome: "OUTCOME"
            case .http: "HTTP"
            case .bytes: "BYTES"
            case .host: "HOST"
            case .result: "RESULT"
            case .source: "SOURCE"
            }
        }

        /// Cells that are right-aligned numbers.
        var isRightAligned: Bool { self == .duration || self == .bytes }
    }

    private static let gap = "  "
    /// RESULT's width when nothing says more room is there: a value's start
    /// is enough to tell rows apart; `show` and the JSON formats give it all.
    private static let preferredResultWidth = 40

    private var result: Int { columns.firstIndex(of: .result)! }
    private var source: Int { columns.firstIndex(of: .source)! }
    /// The cells all the gaps of a line take.
    private var gaps: Int { Self.gap.count * (columns.count - 1) }

    /// A table for `fetches`, or, with none, for rows printed as they come.
    /// `width` is how many cells a line may take; nil for no limit.
    init(color: Bool, timeZone: TimeZone? = nil, width: Int? = Terminal.width, fitting fetches: [Fetch] = []) {
        self.color = color
        self.timeZone = timeZone
        let hosts = Set(fetches.lazy.map(\.host))
        columns = Column.allCases.filter { $0 != .host || hosts.count > 1 }
        widths = []
        var natural: [Int]
        if fetches.isEmpty {
            // Wide enough for any duration, outcome and size to come; the
            // source is unknown, so it takes whatever is left.
            natural = [8, 19, 9, 11, 4, 7, Self.preferredResultWidth, Int.max]
            // On a narrow terminal the fixed columns shrink to their headers
            // first (a printed fetch has ended, so it is never `interrupted`),
            // leaving RESULT and SOURCE the room for their headers at least.
            let freeText = Column.result.header.count + Column.source.header.count
            if let width, natural[..<result].reduce(0, +) + gaps + freeText > width {
                natural[2] = Column.duration.header.count
                natural[3] = FetchStatus.timedOut.rawValue.count
                natural[5] = Column.bytes.header.count
            }
        } else {
            natural = columns.map(\.header.displayWidth)
            for fetch in fetches {
                for (column, cell) in cells(fetch).enumerated() {
                    natural[column] = max(natural[column], cell.displayWidth)
                }
            }
        }
        widths = fit(natural, into: width)
    }

    /// The widths that fit `natural` into `width` cells, by narrowing the
    /// widest of RESULT and SOURCE first (down to their headers).
    private func fit(_ natural: [Int], into width: Int?) -> [Int] {
        var widths = natural
        guard let width else {
            widths[result] = min(widths[result], Self.preferredResultWidth)
            return widths
        }
        let fixed = widths[..<result].reduce(0, +) + gaps
        let room = max(width - fixed, 0)
        var (resultWidth, sourceWidth) = (widths[result], widths[source])
        let (resultMinimum, sourceMinimum) = (Column.result.header.count, Column.source.header.count)
        // Take a cell at a time from the wider column: the loop runs at most
        // a line's width of times once both are cut to the room.
        resultWidth = min(resultWidth, room)
        sourceWidth = min(sourceWidth, room)
        while resultWidth + sourceWidth > room {
            if resultWidth >= sourceWidth, resultWidth > resultMinimum {
                resultWidth -= 1
            } else if sourceWidth > sourceMinimum {
                sourceWidth -= 1
            } else if resultWidth > resultMinimum {
                resultWidth -= 1
            } else {
                break
            }
        }
        widths[result] = max(resultWidth, resultMinimum)
        widths[source] = max(sourceWidth, sourceMinimum)
        return widths
    }

    var header: String {
        line(columns.map(\.header))
    }

    func row(_ fetch: Fetch) -> String {
        line(cells(fetch), status: fetch.status)
    }

    /// The cells joined into a line, each cut and padded to its column;
    /// the last one is not padded, so lines carry no trailing spaces.
    private func line(_ cells: [String], status: FetchStatus? = nil) -> String {
        var line = ""
        for (index, cell) in cells.enumerated() {
            if index > 0 { line += Self.gap }
            let column = columns[index]
            let width = widths[index]
            let cut = index >= result ? cell.shortened(to: width) : cell
            if column == .source { line += cut; break }
            let padded = cut.padded(to: width, right: column.isRightAligned)
            if column == .outcome, let status { line += paint(padded, status) } else { line += padded }
        }
        return line
    }

    /// The text of each column for `fetch`, made safe to print.
    private func cells(_ fetch: Fetch) -> [String] {
        columns.map { column in
            switch column {
            case .id: String(fetch.id.lowercased.prefix(8))
            case .started: fetch.startedAt.localDescription(in: timeZone)
            case .duration: fetch.durationMilliseconds.map(DurationArgument.format(milliseconds:)) ?? "-"
            case .outcome: fetch.status.rawValue
            case .http: fetch.response.map { String($0.status) } ?? "-"
            case .bytes: fetch.response.map { String($0.bytes) } ?? "-"
            case .host: fetch.host.isEmpty ? "-" : fetch.host.terminalSafe
            case .result: Self.result(of: fetch).terminalSafe
            case .source: fetch.source.terminalSafe
            }
        }
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
