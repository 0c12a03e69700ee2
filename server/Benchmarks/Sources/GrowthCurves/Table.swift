import LedgerPopulation
/// The growth table: each figure at every size, beside the first size's (its ratio to it).
enum Table {
    static func percentile(_ values: some Collection<Double>, _ p: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
    }

    static func print(_ rows: [(size: Int, figures: [String: Double])]) {
        guard let first = rows.first else { return }
        say("\n| measure | " + rows.map { "\($0.size) subscribers" }.joined(separator: " | ") + " |")
        say("|---|" + rows.map { _ in "---:|" }.joined())
        for name in first.figures.keys.sorted() {
            let base = first.figures[name] ?? .nan
            let cells = rows.map { row -> String in
                guard let value = row.figures[name] else { return "—" }
                let figure = value >= 100 ? String(format: "%.0f", value) : String(format: "%.2f", value)
                guard row.size != first.size, base != 0, base.isFinite else { return figure }
                return figure + String(format: " (%.2f×)", value / base)
            }
            say("| \(name) | " + cells.joined(separator: " | ") + " |")
        }
    }
}
