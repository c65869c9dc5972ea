/// Rows of cells in aligned columns, fitted to a terminal's width.
///
/// Each column is as wide as its widest cell. When a line would be wider
/// than the width, the least useful cells go first, a step at a time until
/// it fits (`ColumnLayout`). Without a width (a pipe or a file) nothing is
/// cut or dropped. The last cell of a line is never padded, so lines carry
/// no trailing spaces.
struct TextTable {
    struct Column {
        var header: String
        /// The header on a narrow screen.
        var shortHeader: String?
        var isRightAligned = false
        /// How a cell is cut when the column must narrow; nil: never cut.
        var cut: Cut?
        /// Where the column stands among those that may go on a narrow
        /// screen, the lowest going first; nil: it always stays.
        var dropOrder: Int?
    }

    /// How the text of a cuttable column gives up cells.
    enum Cut {
        /// Its end, for an ellipsis.
        case end
        /// Its last words (an error).
        case words
        /// Between its host and the end of its path (a URL).
        case url
        /// Never: the whole text, however wide (an error into a pipe).
        case never

        func apply(_ text: String, width: Int) -> String {
            switch self {
            case .end: text.shortened(to: width)
            case .words: text.shortenedToWords(width)
            case .url: text.shortenedURL(to: width)
            case .never: text
            }
        }

        /// How narrow `text` may be cut while the columns a reader needs
        /// least are still there to drop instead: a URL's `…host/…/last`,
        /// an error's first twelve cells and its ellipsis, a dozen cells
        /// of other text.
        func usefulWidth(of text: String) -> Int {
            switch self {
            case .url: text.usefulURLWidth
            case .words: min(text.displayWidth, String.errorStartWidth + 1)
            case .end: min(text.displayWidth, 12)
            case .never: text.displayWidth
            }
        }
    }

    var columns: [Column]
    /// The cells of each row, one per column, already safe to print.
    var rows: [[String]]

    private func layout(header: Bool) -> ColumnLayout {
        ColumnLayout(
            columns: columns, headersShown: header,
            cellWidths: columns.indices.map { column in rows.map { $0[column].displayWidth }.max() ?? 0 },
            unused: columns.indices.map { column in rows.allSatisfy { ["0", "-", ""].contains($0[column]) } },
            usefulWidths: columns.indices.map { column in
                columns[column].cut.map { cut in rows.map { cut.usefulWidth(of: $0[column]) }.max() ?? 0 }
            }
        )
    }

    /// Whether every line fits in `width` cells with nothing cut or dropped.
    func fitsWhole(_ width: Int, header: Bool = true) -> Bool {
        layout(header: header).lineWidth <= width
    }

    /// The table as lines, `header` first when asked for, fitted into
    /// `width` cells (nil: no limit).
    func lines(width: Int?, header: Bool = true) -> [String] {
        var layout = layout(header: header)
        if let width { layout.fit(into: width) }
        return ((header ? [layout.headers] : []) + rows).map { layout.line($0) }
    }
}

/// Which columns of a table are shown, under which headers, how wide.
///
/// Fitting into a width gives up, one step at a time until the lines fit:
/// columns that may go and that no row uses; long headers for their short
/// forms; free text cut down to what is still useful of it (a URL's host
/// and last segment, an error's first twelve cells, a dozen cells of other
/// text); the columns that may go, the least useful first; free text cut
/// down to its header. Cutting takes a
/// cell at a time from the widest cuttable column (the first of equals), so
/// whatever room is left stays with the text.
struct ColumnLayout {
    let columns: [TextTable.Column]
    /// Whether the headers are printed, and so count for the widths.
    let headersShown: Bool
    /// The widest cell of each column, headers left out.
    let cellWidths: [Int]
    /// The columns in which no row has anything (`0`, `-` or nothing).
    let unused: [Bool]
    /// How narrow each cuttable column may get while a column that may go
    /// is still there (`TextTable.Cut.usefulWidth`); nil: a dozen cells.
    let usefulWidths: [Int?]
    private(set) var shown: [Int]
    private(set) var isShort = false
    private(set) var widths: [Int] = []

    static let gap = "  "
    /// How far free text is cut before columns are dropped for it.
    private static let comfortableTextWidth = 12

    init(columns: [TextTable.Column], headersShown: Bool = true, cellWidths: [Int], unused: [Bool], usefulWidths: [Int?]? = nil) {
        self.columns = columns
        self.headersShown = headersShown
        self.cellWidths = cellWidths
        self.unused = unused
        self.usefulWidths = usefulWidths ?? columns.map { _ in nil }
        shown = Array(columns.indices)
        widths = natural
    }

    var headers: [String] {
        columns.map { isShort ? ($0.shortHeader ?? $0.header) : $0.header }
    }

    private var natural: [Int] {
        zip(cellWidths, headers).map { headersShown ? max($0, $1.displayWidth) : $0 }
    }

    var lineWidth: Int {
        shown.map { widths[$0] }.reduce(0, +) + Self.gap.count * max(shown.count - 1, 0)
    }

    mutating func fit(into width: Int) {
        widths = natural
        guard lineWidth > width else { return }
        let unused = shown.filter { columns[$0].dropOrder != nil && self.unused[$0] }
        shown.removeAll { unused.contains($0) }
        guard lineWidth > width else { return }
        isShort = true
        let droppable = shown.filter { columns[$0].dropOrder != nil }.sorted { columns[$0].dropOrder! < columns[$1].dropOrder! }
        let usefulWidths = usefulWidths
        for column in [nil] + droppable.map(Optional.some) {
            if let column { shown.removeAll { $0 == column } }
            widths = natural
            if cutText(to: width, floor: { column, header, natural in
                min(natural, max(header, usefulWidths[column] ?? Self.comfortableTextWidth))
            }) { return }
        }
        widths = natural
        _ = cutText(to: width) { _, header, _ in header }
    }

    /// Takes a cell at a time from the widest cuttable column, none
    /// narrower than `floor` (of its header's and its natural width) gives;
    /// whether the line then fits.
    private mutating func cutText(to width: Int, floor: (_ column: Int, _ header: Int, _ natural: Int) -> Int) -> Bool {
        let headers = headers
        let cuttable = shown.filter { columns[$0].cut != nil }
        let floors = Dictionary(uniqueKeysWithValues: cuttable.map { ($0, floor($0, headers[$0].displayWidth, widths[$0])) })
        // Cut straight to the room first, so the loop runs at most a line's width of times.
        let room = width - (lineWidth - cuttable.map { widths[$0] }.reduce(0, +))
        for column in cuttable { widths[column] = max(min(widths[column], room), floors[column]!) }
        while lineWidth > width {
            guard let widest = cuttable.filter({ widths[$0] > floors[$0]! }).max(by: { widths[$0] < widths[$1] }) else { return false }
            widths[widest] -= 1
        }
        return true
    }

    /// The cells of the shown columns, each cut (as its column cuts, or as
    /// `cut` says for this row) and padded to its width; `paint` colours a
    /// padded cell.
    func line(_ cells: [String], cut: (Int) -> TextTable.Cut? = { _ in nil }, paint: (Int, String) -> String = { $1 }) -> String {
        var line = ""
        for (position, column) in shown.enumerated() {
            if position > 0 { line += Self.gap }
            let cell = cells[column]
            let fitted = (columns[column].cut.map { cut(column) ?? $0 })?.apply(cell, width: widths[column]) ?? cell
            let isLast = position == shown.count - 1
            line += paint(column, isLast && !columns[column].isRightAligned
                ? fitted : fitted.padded(to: widths[column], right: columns[column].isRightAligned))
        }
        return line
    }
}
