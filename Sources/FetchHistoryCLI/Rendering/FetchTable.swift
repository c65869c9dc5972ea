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
struct FetchTable {
    var color: Bool
    /// The zone times are shown in; nil for the user's.
    var timeZone: TimeZone?
    /// The cells of each column, in order.
    private(set) var widths: [Int]

    private static let headers = ["ID", "STARTED", "DURATION", "OUTCOME", "HTTP", "BYTES", "RESULT", "SOURCE"]
    /// Columns whose cells are right-aligned numbers.
    private static let rightAligned: Set<Int> = [2, 5]
    private static let result = 6, source = 7
    private static let gap = "  "
    /// The cells all the gaps of a line take.
    private static let gaps = gap.count * (headers.count - 1)
    /// RESULT's width when nothing says more room is there: a value's start
    /// is enough to tell rows apart; `show` and the JSON formats give it all.
    private static let preferredResultWidth = 40

    /// A table for `fetches`, or, with none, for rows printed as they come.
    /// `width` is how many cells a line may take; nil for no limit.
    init(color: Bool, timeZone: TimeZone? = nil, width: Int? = Terminal.width, fitting fetches: [Fetch] = []) {
        self.color = color
        self.timeZone = timeZone
        var natural: [Int]
        if fetches.isEmpty {
            // Wide enough for any duration, outcome and size to come; the
            // source is unknown, so it takes whatever is left.
            natural = [8, 19, 9, 11, 4, 7, Self.preferredResultWidth, Int.max]
            // On a narrow terminal the fixed columns shrink to their headers
            // first (a printed fetch has ended, so it is never `interrupted`),
            // leaving RESULT and SOURCE the room for their headers at least.
            let freeText = Self.headers[Self.result].count + Self.headers[Self.source].count
            if let width, natural[..<Self.result].reduce(0, +) + Self.gaps + freeText > width {
                natural[2] = Self.headers[2].count
                natural[3] = FetchStatus.timedOut.rawValue.count
                natural[5] = Self.headers[5].count
            }
        } else {
            natural = Self.headers.map(\.displayWidth)
            for fetch in fetches {
                for (column, cell) in Self.cells(fetch, timeZone: timeZone).enumerated() {
                    natural[column] = max(natural[column], cell.displayWidth)
                }
            }
        }
        widths = Self.fit(natural, into: width)
    }

    /// The widths that fit `natural` into `width` cells, by narrowing the
    /// widest of RESULT and SOURCE first (down to their headers).
    private static func fit(_ natural: [Int], into width: Int?) -> [Int] {
        var widths = natural
        guard let width else {
            widths[result] = min(widths[result], preferredResultWidth)
            return widths
        }
        let fixed = widths[..<result].reduce(0, +) + gaps
        let room = max(width - fixed, 0)
        var (resultWidth, sourceWidth) = (widths[result], widths[source])
        let (resultMinimum, sourceMinimum) = (headers[result].count, headers[source].count)
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
        line(Self.headers)
    }

    func row(_ fetch: Fetch) -> String {
        line(Self.cells(fetch, timeZone: timeZone), status: fetch.status)
    }

    /// The cells joined into a line, each cut and padded to its column;
    /// the last one is not padded, so lines carry no trailing spaces.
    private func line(_ cells: [String], status: FetchStatus? = nil) -> String {
        var line = ""
        for (column, cell) in cells.enumerated() {
            if column > 0 { line += Self.gap }
            let width = widths[column]
            let cut = column >= Self.result ? cell.shortened(to: width) : cell
            if column == Self.source { line += cut; break }
            let padded = cut.padded(to: width, right: Self.rightAligned.contains(column))
            if column == 3, let status { line += paint(padded, status) } else { line += padded }
        }
        return line
    }

    /// The text of each column for `fetch`, made safe to print.
    private static func cells(_ fetch: Fetch, timeZone: TimeZone?) -> [String] {
        [
            String(fetch.id.lowercased.prefix(8)),
            fetch.startedAt.localDescription(in: timeZone),
            fetch.durationMilliseconds.map(DurationArgument.format(milliseconds:)) ?? "-",
            fetch.status.rawValue,
            fetch.response.map { String($0.status) } ?? "-",
            fetch.response.map { String($0.bytes) } ?? "-",
            result(of: fetch).terminalSafe,
            fetch.source.terminalSafe,
        ]
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
