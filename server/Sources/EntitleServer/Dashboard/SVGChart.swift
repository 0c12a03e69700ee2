import Foundation

/// A chart drawn as inline SVG, so the dashboard needs no script, CDN or font. Every series and point
/// carries its values in `data-` attributes for whoever reads the page.
struct SVGChart {
    struct Series {
        var name: String
        var color: String
        var values: [Double]
    }

    enum Style { case line, bars }

    var id: String
    var title: String
    var labels: [String]
    var series: [Series]
    var style: Style
    /// How a value is written on the axis and in tooltips.
    var format: (Double) -> String = { String(format: "%.0f", $0) }

    static let width = 1200.0, height = 300.0
    static let left = 64.0, right = 16.0, top = 16.0, bottom = 36.0

    func render() -> String {
        let plotWidth = Self.width - Self.left - Self.right
        let plotHeight = Self.height - Self.top - Self.bottom
        let all = series.flatMap(\.values)
        let maximum = max(all.max() ?? 0, 0)
        let minimum = min(all.min() ?? 0, 0)
        let span = maximum - minimum == 0 ? 1 : maximum - minimum
        let count = max(labels.count, 1)
        func x(_ index: Int) -> Double {
            style == .bars
                ? Self.left + plotWidth * (Double(index) + 0.5) / Double(count)
                : Self.left + (count == 1 ? plotWidth / 2 : plotWidth * Double(index) / Double(count - 1))
        }
        func y(_ value: Double) -> Double { Self.top + plotHeight * (1 - (value - minimum) / span) }

        var svg = """
            <svg class="chart" data-chart="\(HTML.escape(id))" viewBox="0 0 \(Int(Self.width)) \(Int(Self.height))" \
            width="\(Int(Self.width))" height="\(Int(Self.height))" role="img" aria-label="\(HTML.escape(title))" xmlns="http://www.w3.org/2000/svg">
            <title>\(HTML.escape(title))</title>
            <line x1="\(Self.left)" y1="\(y(minimum))" x2="\(Self.width - Self.right)" y2="\(y(minimum))" class="axis"/>
            <line x1="\(Self.left)" y1="\(Self.top)" x2="\(Self.left)" y2="\(Self.top + plotHeight)" class="axis"/>
            <text x="\(Self.left - 6)" y="\(y(maximum) + 4)" text-anchor="end" class="tick">\(HTML.escape(format(maximum)))</text>
            <text x="\(Self.left - 6)" y="\(y(minimum) + 4)" text-anchor="end" class="tick">\(HTML.escape(format(minimum)))</text>

            """
        if let first = labels.first, let last = labels.last {
            svg += """
                <text x="\(x(0))" y="\(Self.height - 12)" text-anchor="start" class="tick">\(HTML.escape(first))</text>
                <text x="\(x(labels.count - 1))" y="\(Self.height - 12)" text-anchor="end" class="tick">\(HTML.escape(last))</text>

                """
        }
        let barWidth = plotWidth / Double(count) / Double(max(series.count, 1)) * 0.8
        for (seriesIndex, series) in series.enumerated() {
            let lastValue = series.values.last.map(format) ?? ""
            svg += "<g class=\"series\" data-series=\"\(HTML.escape(series.name))\" data-last=\"\(HTML.escape(lastValue))\" data-count=\"\(series.values.count)\">\n"
            switch style {
            case .line:
                let points = series.values.enumerated().map { "\(round(x($0.offset))),\(round(y($0.element)))" }.joined(separator: " ")
                svg += "<polyline fill=\"none\" stroke=\"\(series.color)\" stroke-width=\"2\" points=\"\(points)\"/>\n"
            case .bars:
                for (index, value) in series.values.enumerated() {
                    let left = x(index) - barWidth * Double(self.series.count) / 2 + barWidth * Double(seriesIndex)
                    let topEdge = min(y(value), y(0))
                    let height = max(abs(y(value) - y(0)), 0.5)
                    svg += "<rect x=\"\(round(left))\" y=\"\(round(topEdge))\" width=\"\(round(barWidth))\" height=\"\(round(height))\" fill=\"\(series.color)\" data-label=\"\(HTML.escape(labels[safe: index] ?? ""))\" data-value=\"\(HTML.escape(format(value)))\"><title>\(HTML.escape("\(series.name) \(labels[safe: index] ?? ""): \(format(value))"))</title></rect>\n"
                }
            }
            svg += "</g>\n"
        }
        svg += "</svg>"
        var legend = "<p class=\"legend\">"
        for series in series {
            legend += "<span><i style=\"background:\(series.color)\"></i>\(HTML.escape(series.name))</span> "
        }
        return svg + legend + "</p>"
    }

    private func round(_ value: Double) -> String { String(format: "%.1f", value) }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
