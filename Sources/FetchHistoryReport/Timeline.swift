import FetchHistoryModel
import FoundationEssentials

/// The report's timeline: a lane per session (or per host, past the lane
/// limit), drawn as SVG. A fetch is a bar from its start to its end whose
/// colour, shape and label all say its outcome — solid for succeeded,
/// hatched for failed, hollow with a × for cancelled, dashed with its
/// deadline marked for timed out, half height with a jagged end for
/// interrupted or an arrow for still running — and a small triangle marks
/// when fetch was tapped. Slices carry the same fills and heights.
struct Timeline {
    struct Lane {
        /// What a lane holds: a session's fetches, a host's or a source's.
        enum Kind {
            case session, host, source
        }

        var kind: Kind
        /// A session's 8-character id, or the host or source the lane holds.
        var name: String
        /// The host a session's lane is grouped under; nil for a host's or a source's.
        var group: String?
        var count: Int
        var bars: [Fetch]
        var columns: [Int: ColumnTally]
        /// How many sessions a host's or source's lane holds.
        var sessions = 1
    }

    /// Where the first column of an aggregated lane starts.
    let start: Timestamp
    /// Where times fall across the plot: linear for slices, quiet stretches folded for bars.
    let scale: TimeScale
    let lanes: [Lane]
    /// How long a column of an aggregated lane lasts.
    let columnMilliseconds: Int64
    let aggregated: Bool
    /// Why the timeline is drawn in aggregate, when it is.
    let note: String?
    /// The problems' keys and the sources' names, by the indexes a column counts them under.
    let problemKeys: [String]
    let sourceNames: [String]

    static let width = 1160.0
    static let labelWidth = 220.0
    static let right = 1150.0
    static let axisHeight = 28.0
    /// The least room between two ticks, and about how wide a character of the axis's 11-unit font is.
    static let tickSpacing = 110.0
    static let axisCharacterWidth = 6.5

    private var laneHeight: Double { aggregated ? 18 : 24 }
    /// How wide a slice grows: neighbouring columns merge while the slice stays within 1.5 times
    /// this (a slice whose neighbours are far, or across a fold, stays narrower).
    static let sliceWidth = (right - labelWidth) / 240

    private func x(_ time: Timestamp) -> Double { scale.x(time) }

    /// Lanes grouped under their host when there are several hosts, each group in the order its first lane came.
    private var rows: [Row] {
        let groups = lanes.reduce(into: [String]()) { if let group = $1.group, !$0.contains(group) { $0.append(group) } }
        guard groups.count > 1, lanes.count > groups.count else { return lanes.map { Row(header: nil, lane: $0) } }
        return groups.flatMap { group -> [Row] in
            [Row(header: group.isEmpty ? "host not known" : group, lane: nil)] + lanes.filter { $0.group == group }.map { Row(header: nil, lane: $0) }
        }
    }

    /// A host's heading, or a lane under it.
    private struct Row {
        var header: String?
        var lane: Lane?
    }

    func svg() -> String {
        let rows = rows
        // Each lane's slices in the order the lanes are drawn (grouped by host, not as they came);
        // the fullest slice of any lane: every slice's shade is a share of it.
        let laneSlices = aggregated ? rows.compactMap(\.lane).map(slices) : []
        let busiest = max(1, laneSlices.flatMap { $0.map(\.tally.counts.total) }.max() ?? 1)
        let height = Self.axisHeight + Double(rows.count) * laneHeight + 8
        var out = "<svg class=\"timeline\" viewBox=\"0 0 \(Self.width) \(height)\" width=\"100%\" role=\"group\""
        out += " aria-label=\"Timeline of \(ReportFormat.count(lanes.reduce(0) { $0 + $1.count })) fetches in \(ReportFormat.count(lanes.count)) lanes\(lanes.first.map { " (a lane per \(Self.word($0.kind)))" } ?? "")\">\n"
        out += Self.patterns
        out += axis(height: height)
        var y = Self.axisHeight
        var laneNumber = 0
        let underHeadings = rows.contains { $0.header != nil }
        for row in rows {
            if let header = row.header {
                out += "<text class=\"group\" x=\"4\" y=\"\(format(y + laneHeight * 0.7))\">\(HTMLText.escaped(header))</text>\n"
            } else if let lane = row.lane {
                out += "<g class=\"lane\">"
                let label = Self.label(of: lane, underHeading: underHeadings)
                out += "<text class=\"lane-label\" x=\"\(underHeadings ? 14 : 4)\" y=\"\(format(y + laneHeight * 0.68))\">"
                out += "<title>\(HTMLText.escaped(label))</title>\(HTMLText.escaped(String(label.prefix(34))))"
                if lane.sessions > 1 { out += " (\(lane.sessions) sessions)" }
                out += "</text>"
                out += "<line class=\"lane-line\" x1=\"\(Self.labelWidth)\" x2=\"\(Self.right)\" y1=\"\(format(y + laneHeight / 2))\" y2=\"\(format(y + laneHeight / 2))\"/>"
                out += aggregated ? strip(laneSlices[laneNumber], y: y, busiest: busiest) : bars(lane, y: y)
                laneNumber += 1
                out += "</g>\n"
            }
            y += laneHeight
        }
        return out + "</svg>\n"
    }

    /// What a lane is called: a host's lane its host, a source's its source; a session's its
    /// short id, with its host when no heading above names it (id first, so a long host name is
    /// what gets cut).
    static func label(of lane: Lane, underHeading: Bool) -> String {
        switch lane.kind {
        case .session:
            let host = lane.group ?? ""
            return underHeading || host.isEmpty ? "session \(lane.name)" : "\(lane.name) · \(host)"
        case .host: return lane.name.isEmpty ? "(host not known)" : lane.name
        case .source: return lane.name.isEmpty ? "(source not known)" : lane.name
        }
    }

    private static func word(_ kind: Lane.Kind) -> String {
        switch kind {
        case .session: "session"
        case .host: "host"
        case .source: "source"
        }
    }

    /// Round times across each stretch of activity (as many as its width holds; `TimeTicks`), and each folded stretch as a band saying how long it was.
    private func axis(height: Double) -> String {
        var out = ""
        var labels: [(x: Double, text: String, isFirst: Bool)] = []
        for segment in scale.segments {
            let times = TimeTicks.times(from: segment.from, to: segment.to, atMost: Int((segment.x1 - segment.x0) / Self.tickSpacing))
            for (index, time) in times.enumerated() {
                let tickX = x(Timestamp(millisecondsSince1970: time))
                out += "<line class=\"tick\" x1=\"\(format(tickX))\" x2=\"\(format(tickX))\" y1=\"\(Self.axisHeight - 6)\" y2=\"\(format(height - 4))\"/>"
                labels.append((tickX, TimeTicks.label(time, after: index == 0 ? nil : times[index - 1]), index == 0))
            }
        }
        // Each stretch's first label (its date), then the others where they do not run into one already written.
        var written: [ClosedRange<Double>] = []
        for label in labels.filter(\.isFirst) + labels.filter({ !$0.isFirst }) {
            let anchor = label.x < Self.labelWidth + 40 ? "start" : label.x > Self.right - 60 ? "end" : "middle"
            let width = Double(label.text.count) * Self.axisCharacterWidth
            let left = anchor == "start" ? label.x : anchor == "end" ? label.x - width : label.x - width / 2
            let extent = (left - 6)...(left + width + 6)
            guard !written.contains(where: { $0.overlaps(extent) }) else { continue }
            written.append(extent)
            out += "<text class=\"axis\" x=\"\(format(label.x))\" y=\"14\" text-anchor=\"\(anchor)\">\(label.text)</text>\n"
        }
        for gap in scale.gaps {
            let quiet = "\(ReportFormat.duration(gap.milliseconds)) without fetches"
            out += "<g class=\"gap\"><title>\(quiet)</title><rect class=\"gap-band\" x=\"\(format(gap.x0 + 4))\" y=\"\(Self.axisHeight - 6)\" width=\"\(format(gap.x1 - gap.x0 - 8))\" height=\"\(format(height - Self.axisHeight + 2))\"/>"
            // Inside the band, under the axis: the time labels above may reach across it.
            out += "<text class=\"axis\" x=\"\(format((gap.x0 + gap.x1) / 2))\" y=\"\(Self.axisHeight + 8)\" text-anchor=\"middle\">⋯</text></g>\n"
        }
        return out
    }

    private func bars(_ lane: Lane, y: Double) -> String {
        var out = ""
        for fetch in lane.bars {
            let from = x(fetch.startedAt)
            // An interrupted or running fetch has no end: drawn short, its end jagged or an arrow.
            let to = fetch.endedAt.map(x) ?? from + 10
            let width = max(3, to - from)
            let details = ReportFormat.details(of: fetch)
            let status = fetch.status
            let full = status == .interrupted || status == .running ? laneHeight * 0.25 : laneHeight * 0.5
            let top = y + (laneHeight - full) / 2
            out += "<a class=\"fetch\" href=\"#f-\(fetch.id.uuidString.lowercased())\" data-fetch=\"\" data-details=\"\(HTMLText.escaped(details))\""
            out += " aria-label=\"\(HTMLText.escaped(ReportFormat.label(of: fetch)))\"><title>\(HTMLText.escaped(details))</title>"
            out += "<rect class=\"bar \(ReportFormat.className(status))\" x=\"\(format(from))\" y=\"\(format(top))\" width=\"\(format(width))\" height=\"\(format(full))\"/>"
            switch fetch.outcome {
            case .cancelled:
                let cx = from + width, cy = y + laneHeight / 2
                out += "<path class=\"mark cancel\" d=\"M\(format(cx - 3)) \(format(cy - 3))l6 6m0 -6l-6 6\"/>"
            case .timedOut:
                if let timeout = fetch.script?.timeoutMilliseconds {
                    // An imported timeout can be as long as Int64 allows: past the end is drawn at the end.
                    let (end, overflow) = (fetch.script?.tappedAt ?? fetch.startedAt).millisecondsSince1970.addingReportingOverflow(timeout)
                    let deadline = x(Timestamp(millisecondsSince1970: overflow ? .max : end))
                    out += "<line class=\"mark deadline\" x1=\"\(format(deadline))\" x2=\"\(format(deadline))\" y1=\"\(format(y + 2))\" y2=\"\(format(y + laneHeight - 2))\"/>"
                }
            case .interrupted, nil:
                let ex = from + width, cy = y + laneHeight / 2
                out += status == .running
                    ? "<path class=\"mark going\" d=\"M\(format(ex)) \(format(cy - 4))l4 4l-4 4\"/>"
                    : "<path class=\"mark jagged\" d=\"M\(format(ex)) \(format(cy - 5))l3 2.5l-3 2.5l3 2.5l-3 2.5\"/>"
            case .succeeded, .failed:
                break
            }
            if let tapped = fetch.script?.tappedAt {
                let tx = x(tapped)
                out += "<path class=\"mark tap\" d=\"M\(format(tx - 3)) \(format(y + 1))h6l-3 4z\"/>"
            }
            out += "</a>"
        }
        return out
    }

    /// What a slice of a strip holds: neighbouring columns, from `from` to `to`.
    struct Slice {
        var from: Int
        var to: Int
        var tally: ColumnTally
    }

    private func time(ofColumn column: Int) -> Timestamp {
        Timestamp(millisecondsSince1970: start.millisecondsSince1970 + Int64(column) * columnMilliseconds)
    }

    /// A lane's columns merged into slices up to 1.5 × `sliceWidth` wide (empty columns between them
    /// included), never across a folded stretch.
    private func slices(_ lane: Lane) -> [Slice] {
        var slices: [Slice] = []
        for column in lane.columns.keys.sorted() {
            let tally = lane.columns[column]!
            if let last = slices.last,
               x(time(ofColumn: column + 1)) - x(time(ofColumn: last.from)) <= Self.sliceWidth * 1.5,
               scale.segment(of: time(ofColumn: column)) == scale.segment(of: time(ofColumn: last.from)) {
                slices[slices.count - 1].to = column + 1
                slices[slices.count - 1].tally.add(tally)
            } else {
                slices.append(Slice(from: column, to: column + 1, tally: tally))
            }
        }
        return slices
    }

    private func strip(_ slices: [Slice], y: Double, busiest: Int) -> String {
        var out = ""
        for slice in slices {
            let counts = slice.tally.counts
            let total = counts.total
            let main = HistoryStatistics.statusOrder.max { counts[$0] < counts[$1] } ?? .succeeded
            let shade = 0.35 + 0.65 * Double(total) / Double(busiest)
            let from = x(time(ofColumn: slice.from))
            let width = max(1, x(time(ofColumn: slice.to)) - from)
            let words = HistoryStatistics.statusOrder.compactMap { status in
                counts[status] > 0 ? "\(ReportFormat.count(counts[status])) \(ReportFormat.word(status))" : nil
            }
            let details = "\(ReportFormat.time(time(ofColumn: slice.from))) to \(ReportFormat.time(time(ofColumn: slice.to))) UTC · "
                + "\(ReportFormat.count(total)) \(total == 1 ? "fetch" : "fetches"): " + words.joined(separator: ", ") + tops(of: slice.tally)
            out += "<g data-fetch=\"\" tabindex=\"0\" data-details=\"\(HTMLText.escaped(details))\" aria-label=\"\(HTMLText.escaped(details))\"><title>\(HTMLText.escaped(details))</title>"
            // Half height where most fetches never ended, as their bars are.
            let inset = main == .interrupted || main == .running ? 3 + (laneHeight - 6) / 4 : 3
            out += "<rect class=\"slice \(ReportFormat.className(main))\" x=\"\(format(from))\" y=\"\(format(y + inset))\" width=\"\(format(width))\" height=\"\(format(laneHeight - 2 * inset))\" fill-opacity=\"\(format(shade))\"/>"
            if counts[.failed] + counts[.timedOut] > 0 {
                // Any failure shows, even under a busier outcome: a mark under the slice.
                out += "<path class=\"mark some-failed\" d=\"M\(format(from)) \(format(y + laneHeight - 1))h\(format(max(2, width)))\"/>"
            }
            out += "</g>"
        }
        return out
    }

    /// How many of a slice's problems and sources its details name.
    static let sliceTops = 3

    /// A slice's problems and sources, most first, a line each: `\nproblems: HTTP 503 (15), timed
    /// out (6)`, `\nsource: random (50)`. Names are cut shorter than elsewhere: each slice carries
    /// its details three times.
    private func tops(of tally: ColumnTally) -> String {
        func line(_ counts: IndexCounts, _ names: [String], one: String, many: String) -> String {
            let (top, others) = counts.top(Self.sliceTops)
            guard !top.isEmpty else { return "" }
            let listed = top.map { entry in
                let name = ReportFormat.shortened(names[entry.index], limit: 60).split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\\n")
                return "\(name) (\(ReportFormat.count(entry.count)))"
            }
            return "\n\(top.count + others == 1 ? one : many): " + listed.joined(separator: ", ") + (others > 0 ? " and \(others) more" : "")
        }
        return line(tally.problems, problemKeys, one: "problem", many: "problems") + line(tally.sources, sourceNames, one: "source", many: "sources")
    }

    /// Fills that carry meaning besides colour: failed bars are hatched.
    static let patterns = """
        <defs><pattern id="hatch" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">\
        <rect width="5" height="5" class="hatch-ground"/><line x1="0" y1="0" x2="0" y2="5" class="hatch-line"/></pattern></defs>

        """

    private func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
