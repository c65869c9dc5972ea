import Foundation

/// The scale curve as an SVG: time against history size, both axes
/// logarithmic; fetch-history's commands solid with dots, the baseline doing
/// the same work (sqlite3; psql for the team history) dashed in the same colour.
enum ScaleChart {
    static func svg(_ rows: [ScaleRow]) -> String {
        let commands = rows.map(\.command).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
        let sizes = rows.map(\.size), times = rows.flatMap { [$0.ours, $0.sqlite] }.filter { $0 > 0 }
        guard let smallest = sizes.min(), let largest = sizes.max(), let fastest = times.min(), let slowest = times.max(),
              largest > smallest
        else { return "<svg xmlns=\"http://www.w3.org/2000/svg\"/>\n" }
        let width = 960.0, height = 600.0
        let plot = (left: 80.0, top: 40.0, right: 660.0, bottom: 540.0)
        let xRange = (log10(Double(smallest)), log10(Double(largest)))
        let yRange = (floor(log10(fastest)), ceil(log10(slowest)))
        func x(_ size: Int) -> Double {
            plot.left + (log10(Double(size)) - xRange.0) / (xRange.1 - xRange.0) * (plot.right - plot.left)
        }
        func y(_ seconds: Double) -> Double {
            plot.bottom - (log10(seconds) - yRange.0) / (yRange.1 - yRange.0) * (plot.bottom - plot.top)
        }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }
        let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22", "#393b79"]

        var svg = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"12\">",
            "<title>fetch-history: time against history size (log–log)</title>",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        ]
        // Grid and labels: a line a decade on both axes.
        for power in Int(yRange.0)...Int(yRange.1) {
            let seconds = pow(10, Double(power)), line = number(y(seconds))
            svg.append("<line x1=\"\(number(plot.left))\" y1=\"\(line)\" x2=\"\(number(plot.right))\" y2=\"\(line)\" stroke=\"#ddd\"/>")
            svg.append("<text x=\"\(number(plot.left - 8))\" y=\"\(line)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(label(seconds))</text>")
        }
        for size in Array(Set(sizes)).sorted() {
            let line = number(x(size))
            svg.append("<line x1=\"\(line)\" y1=\"\(number(plot.top))\" x2=\"\(line)\" y2=\"\(number(plot.bottom))\" stroke=\"#ddd\"/>")
            svg.append("<text x=\"\(line)\" y=\"\(number(plot.bottom + 20))\" text-anchor=\"middle\">\(size.formatted)</text>")
        }
        svg.append("<text x=\"\(number((plot.left + plot.right) / 2))\" y=\"\(number(height - 16))\" text-anchor=\"middle\">fetches in the history</text>")
        svg.append("<text x=\"18\" y=\"\(number((plot.top + plot.bottom) / 2))\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(number((plot.top + plot.bottom) / 2)))\">time (log scale)</text>")
        svg.append("<rect x=\"\(number(plot.left))\" y=\"\(number(plot.top))\" width=\"\(number(plot.right - plot.left))\" height=\"\(number(plot.bottom - plot.top))\" fill=\"none\" stroke=\"#888\"/>")

        for (index, command) in commands.enumerated() {
            let colour = palette[index % palette.count]
            let curve = rows.filter { $0.command == command }.sorted { $0.size < $1.size }
            let ours = curve.map { "\(number(x($0.size))),\(number(y($0.ours)))" }.joined(separator: " ")
            let theirs = curve.map { "\(number(x($0.size))),\(number(y($0.sqlite)))" }.joined(separator: " ")
            svg.append("<polyline points=\"\(theirs)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>")
            svg.append("<polyline points=\"\(ours)\" fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>")
            for point in curve {
                svg.append("<circle cx=\"\(number(x(point.size)))\" cy=\"\(number(y(point.ours)))\" r=\"3.5\" fill=\"\(colour)\"/>")
            }
            let legend = plot.top + 10 + Double(index) * 22
            svg.append("<line x1=\"690\" y1=\"\(number(legend))\" x2=\"720\" y2=\"\(number(legend))\" stroke=\"\(colour)\" stroke-width=\"2.5\"/>")
            svg.append("<text x=\"728\" y=\"\(number(legend))\" dominant-baseline=\"middle\">\(escaped(command))</text>")
        }
        let note = plot.top + 20 + Double(commands.count) * 22
        svg.append("<line x1=\"690\" y1=\"\(number(note))\" x2=\"720\" y2=\"\(number(note))\" stroke=\"#444\" stroke-width=\"1.5\" stroke-dasharray=\"5 4\"/>")
        svg.append("<text x=\"728\" y=\"\(number(note))\" dominant-baseline=\"middle\">sqlite3 (psql: team), same work</text>")
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func label(_ seconds: Double) -> String {
        switch seconds {
        case ..<1e-3: String(format: "%g µs", seconds * 1e6)
        case ..<1: String(format: "%g ms", seconds * 1e3)
        default: String(format: "%g s", seconds)
        }
    }

    private static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
    }
}
