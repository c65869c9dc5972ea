import FetchHistoryModel

/// Where a time falls across the timeline, with quiet stretches folded.
///
/// A night of probes and a burst of taps the next evening, drawn to one
/// linear scale, leave the burst a few pixels wide. So stretches with no
/// fetch longer than 10 seconds, a tenth of the whole span and ten times
/// the usual pause between fetches are folded into a narrow band labelled with how
/// long they lasted, and each stretch of activity gets width for its
/// length, but never less than a third of the longest one's, so a short
/// burst stays readable.
struct TimeScale {
    struct Segment {
        var from: Int64
        var to: Int64
        var x0 = 0.0
        var x1 = 0.0
    }

    /// Stretches of activity, in time order, each with its place on the axis.
    private(set) var segments: [Segment]
    static let gapWidth = 28.0

    /// A scale over `intervals` (start and end of each fetch, in any order),
    /// quiet stretches folded.
    init(intervals: [(from: Int64, to: Int64)], left: Double, right: Double) {
        let sorted = intervals.sorted { $0.from < $1.from }
        guard let first = sorted.first else {
            segments = [Segment(from: 0, to: 1, x0: left, x1: right)]
            return
        }
        let span = max(1, (sorted.map(\.to).max() ?? first.to) - first.from)
        // The usual pause between fetches: a probe's interval is never folded, only pauses far longer.
        var reach = first.to, pauses: [Int64] = []
        for interval in sorted.dropFirst() {
            // Overlapping or touching neighbours pause for no time: a burst's pauses are short.
            pauses.append(max(0, interval.from - reach))
            reach = max(reach, interval.to)
        }
        // The lower median: with two pauses, the shorter is the usual one, the longer may fold.
        let usual = pauses.sorted().dropFirst((pauses.count - 1) / 2).first ?? 0
        let fold = max(10_000, span / 10, usual * 10)
        var merged = [Segment(from: first.from, to: max(first.to, first.from))]
        for interval in sorted.dropFirst() {
            if interval.from - merged[merged.count - 1].to > fold {
                merged.append(Segment(from: interval.from, to: max(interval.to, interval.from)))
            } else {
                merged[merged.count - 1].to = max(merged[merged.count - 1].to, interval.to)
            }
        }
        // A little room either side of each stretch, so a lone fetch is a bar, not a dot at an edge
        // (a twentieth of the stretch, at least 250 ms, never more than a quarter of a fold).
        for index in merged.indices {
            let pad = min(max(250, (merged[index].to - merged[index].from) / 20), fold / 4)
            merged[index].from -= pad
            merged[index].to += pad
        }
        let longest = Double(merged.map { $0.to - $0.from }.max() ?? 0)
        let weights = merged.map { longest == 0 ? 1 : max(Double($0.to - $0.from), longest / 3) }
        let room = right - left - Self.gapWidth * Double(merged.count - 1)
        var x = left
        for index in merged.indices {
            merged[index].x0 = x
            x += room * weights[index] / weights.reduce(0, +)
            merged[index].x1 = x
            x += Self.gapWidth
        }
        segments = merged
    }

    /// The folded stretches: where each band is and how long it lasted.
    var gaps: [(x0: Double, x1: Double, milliseconds: Int64)] {
        zip(segments, segments.dropFirst()).map { ($0.x1, $1.x0, $1.from - $0.to) }
    }

    /// Which stretch of activity a time falls in (the one before, in a folded stretch).
    func segment(of time: Timestamp) -> Int {
        segments.lastIndex { $0.from <= time.millisecondsSince1970 } ?? 0
    }

    func x(_ time: Timestamp) -> Double {
        let t = time.millisecondsSince1970
        guard let index = segments.lastIndex(where: { $0.from <= t }) else { return segments[0].x0 }
        let segment = segments[index]
        if t <= segment.to || index == segments.count - 1 {
            let length = Double(max(1, segment.to - segment.from))
            return min(segment.x1, segment.x0 + (segment.x1 - segment.x0) * Double(t - segment.from) / length)
        }
        // In a folded stretch: somewhere across its band.
        let next = segments[index + 1]
        return segment.x1 + (next.x0 - segment.x1) * Double(t - segment.to) / Double(max(1, next.from - segment.to))
    }
}
