import FetchHistory
import FoundationEssentials

/// Fetches as aligned text rows, fitted to the terminal's width.
///
/// Columns have fixed widths once the table is made, so rows can be printed
/// as they come (`fetch`). Given the rows up front (`list`), each column is
/// as wide as its widest cell. When the width is limited and the rows would
/// not fit, the least useful cells go first: STARTED drops the date (or the
/// year) that every row shares with today; then, as `ColumnLayout` gives
/// them up, short headers, the free text of HOST, RESULT and SOURCE (the
/// wider first, RESULT before SOURCE when they are as wide), and the
/// columns a reader needs least: BYTES, HTTP, HOST, DURATION. A URL keeps
/// its host and the end of its path (`…host/…/last`), an error its first
/// words.
///
/// HTTP and BYTES appear only when a row has a response (or, for rows
/// printed as they come, when the source is an HTTP URL); a HOST column,
/// before RESULT, only when the rows come from more than one host (a team's
/// history, or a file it was pulled into).
struct FetchTable {
    var color: Bool
    /// The zone times are shown in; nil for the user's.
    var timeZone: TimeZone?
    /// The columns there are, in order; `layout` says which are shown.
    let columns: [Column]
    private(set) var layout: ColumnLayout
    /// How much of each start time is shown.
    private(set) var dates = LocalTimePrecision.dateAndTime
    /// How many first characters every id on screen shares: dimmed when
    /// colouring, so the characters that tell rows apart (and that `show`
    /// takes as the end of a short id) stand out.
    private(set) var sharedIDLength = 0
    /// Whether lines are fitted to a width (a terminal): into a pipe or a
    /// file nothing a script needs, an error or a source, is cut.
    private let isFitted: Bool
    /// The cut cell of each source, when SOURCE is narrower than its
    /// sources: no two the same (`String.distinctURLCells`).
    private var sourceCells: [String: String] = [:]

    /// A column of the table.
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

        /// How the column is laid out: which cells are cut, which columns
        /// go first on a narrow screen.
        var layout: TextTable.Column {
            switch self {
            case .id, .started, .outcome: TextTable.Column(header: header)
            case .duration: TextTable.Column(header: header, shortHeader: "TIME", isRightAligned: true, dropOrder: 3)
            case .http: TextTable.Column(header: header, dropOrder: 1)
            case .bytes: TextTable.Column(header: header, isRightAligned: true, dropOrder: 0)
            case .host: TextTable.Column(header: header, cut: .end, dropOrder: 2)
            case .result: TextTable.Column(header: header, cut: .end)
            case .source: TextTable.Column(header: header, cut: .url)
            }
        }
    }

    /// RESULT's width when nothing says more room is there: a value's start
    /// is enough to tell rows apart; `show` and the JSON formats give it all.
    private static let preferredResultWidth = 40

    /// A table for `fetches`, or, with none, for rows printed as they come
    /// from `source` (nil when it is not known). `width` is how many cells
    /// a line may take; nil for no limit.
    init(
        color: Bool, timeZone: TimeZone? = nil, width: Int? = Terminal.width, fitting fetches: [Fetch] = [],
        source: String? = nil
    ) {
        self.color = color
        self.timeZone = timeZone
        isFitted = width != nil
        let hosts = Set(fetches.lazy.map(\.host))
        let responses = source.map { $0.hasPrefix("http://") || $0.hasPrefix("https://") } ?? false
        let showsResponses = fetches.isEmpty ? responses : fetches.contains { $0.response != nil }
        columns = Column.allCases.filter { column in
            switch column {
            case .host: hosts.count > 1
            case .http, .bytes: showsResponses
            default: true
            }
        }
        layout = ColumnLayout(columns: [], cellWidths: [], unused: [])
        if fetches.count > 1 {
            let ids = fetches.map { Array($0.id.lowercased.prefix(IDArgument.shortIDLength)) }
            sharedIDLength = (0..<IDArgument.shortIDLength).first { index in ids.contains { $0[index] != ids[0][index] } } ?? 0
        }
        layout = makeLayout(fetches, source: source, width: width)
        // A narrow screen first gives up what every start shares with today.
        if let width, layout.lineWidth > width {
            dates = .sharedWithToday(fetches.isEmpty ? [.now] : fetches.map(\.startedAt), in: timeZone)
            layout = makeLayout(fetches, source: source, width: width)
        }
        if let width { layout.fit(into: width) }
        if let source = columns.firstIndex(of: .source), layout.shown.contains(source),
           layout.widths[source] < layout.cellWidths[source] {
            sourceCells = String.distinctURLCells(Set(fetches.map { $0.source.terminalSafe }), width: layout.widths[source])
        }
    }

    /// The layout of whole cells: each column as wide as its widest cell,
    /// or, with no rows yet, as wide as any row to come.
    private func makeLayout(_ fetches: [Fetch], source: String?, width: Int?) -> ColumnLayout {
        var cellWidths: [Int]
        if fetches.isEmpty {
            // A printed fetch has ended, so it is never `interrupted`; the
            // random source's results are numbers up to 100 or "by the user";
            // an unknown source takes whatever room is left.
            cellWidths = columns.map { column in
                switch column {
                case .id: 8
                case .started: dates.describe(.now, in: timeZone).count
                case .duration: 8
                case .outcome: FetchStatus.succeeded.rawValue.count
                case .http: 4
                case .bytes: 7
                case .host: 8
                case .result: columns.contains(.http) ? Self.preferredResultWidth : "by the user".count
                case .source: source?.terminalSafe.displayWidth ?? width ?? .max / 4
                }
            }
        } else {
            cellWidths = columns.map { _ in 0 }
            for fetch in fetches {
                for (column, cell) in cells(fetch).enumerated() {
                    cellWidths[column] = max(cellWidths[column], cell.displayWidth)
                }
            }
        }
        // Into a pipe a value's start is enough, but an error is kept whole.
        if width == nil, let result = columns.firstIndex(of: .result) {
            let errors = fetches.lazy.filter { $0.status == .failed }.map { Self.result(of: $0).terminalSafe.displayWidth }.max() ?? 0
            cellWidths[result] = max(min(cellWidths[result], Self.preferredResultWidth), errors)
        }
        return ColumnLayout(
            columns: columns.map(\.layout), cellWidths: cellWidths, unused: columns.map { _ in false },
            usefulWidths: usefulWidths(fetches)
        )
    }

    /// How narrow each cuttable column may get before the columns a reader
    /// needs least go (`TextTable.Cut.usefulWidth`): a URL's host and last
    /// segment, an error's first twelve cells, a dozen of a value or a host.
    private func usefulWidths(_ fetches: [Fetch]) -> [Int?] {
        columns.map { column in
            switch column {
            case .source: fetches.isEmpty ? nil : String.usefulURLWidth(of: Set(fetches.map { $0.source.terminalSafe }))
            case .result:
                fetches.lazy.map { fetch in
                    (fetch.status == .failed ? TextTable.Cut.words : .end).usefulWidth(of: Self.result(of: fetch).terminalSafe)
                }.max()
            default: nil
            }
        }
    }

    var header: String {
        layout.line(layout.headers)
    }

    func row(_ fetch: Fetch) -> String {
        let outcome = columns.firstIndex(of: .outcome), result = columns.firstIndex(of: .result)
        let source = columns.firstIndex(of: .source)
        var cells = cells(fetch)
        if let source, let cell = sourceCells[cells[source]] { cells[source] = cell }
        // An error keeps its first words on a terminal, and all of them into
        // a pipe; a value is cut at its end.
        let errorCut: TextTable.Cut = isFitted ? .words : .never
        return layout.line(cells, cut: { $0 == result && fetch.status == .failed ? errorCut : nil }) { column, cell in
            switch column {
            case outcome: paint(cell, fetch.status)
            case columns.firstIndex(of: .id) where color && sharedIDLength > 0: "\u{1B}[2m\(cell.prefix(sharedIDLength))\u{1B}[0m\(cell.dropFirst(sharedIDLength))"
            default: cell
            }
        }
    }

    /// The text of each column for `fetch`, made safe to print.
    private func cells(_ fetch: Fetch) -> [String] {
        columns.map { column in
            switch column {
            case .id: String(fetch.id.lowercased.prefix(8))
            case .started: dates.describe(fetch.startedAt, in: timeZone)
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
        case .cancelled(.terminated)?: "terminated"
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
