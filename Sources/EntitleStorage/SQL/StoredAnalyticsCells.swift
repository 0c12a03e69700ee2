import AppStoreModels
import EntitleAnalytics
import Foundation

/// A subscriber's analytics cells as stored in `analytics_contributions.cells`: a JSON array of
/// `{"d": day, "m": metric, "p": product, "c": currency, "h": cohort, "v": value}` objects.
///
/// The array is written directly (a refresh writes one per subscriber it touches, and Foundation's
/// encoder cost more than computing the cells) and read back with `JSONCursor`; what that doesn't
/// read (an escaped string, what earlier versions wrote with `JSONEncoder`) `JSONDecoder` reads.
enum StoredAnalyticsCells {
    private struct Row: Decodable {
        var d: Int
        var m: String
        var p: String
        var c: String
        var h: String
        var v: Int64
    }

    /// The JSON text of `cells`, in no particular order (they are read back into a dictionary).
    ///
    /// Written as bytes: a subscriber's cells repeat a few strings (products, currencies, cohorts,
    /// metrics), each quoted once per call; appending to a `String` piece by piece, every string
    /// checked for escapes each time, was 17% of computing a refresh's cells (41 → 17 µs for 70 cells).
    static func encode(_ cells: AnalyticsCells) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(cells.count * 96 + 2)
        var (metrics, products, currencies, cohorts) = (QuotedStrings(), QuotedStrings(), QuotedStrings(), QuotedStrings())
        bytes.append(UInt8(ascii: "["))
        for (key, value) in cells {
            bytes.append(contentsOf: bytes.count == 1 ? Literal.firstDay : Literal.day)
            appendDecimal(Int64(key.day), to: &bytes)
            bytes.append(contentsOf: Literal.metric)
            metrics.append(key.metric.rawValue, to: &bytes)
            bytes.append(contentsOf: Literal.product)
            products.append(key.product, to: &bytes)
            bytes.append(contentsOf: Literal.currency)
            currencies.append(key.currency, to: &bytes)
            bytes.append(contentsOf: Literal.cohort)
            cohorts.append(key.cohort, to: &bytes)
            bytes.append(contentsOf: Literal.value)
            appendDecimal(value, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }
        bytes.append(UInt8(ascii: "]"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The text between a cell's values.
    private enum Literal {
        static let firstDay = Array(#"{"d":"#.utf8)
        static let day = Array(#",{"d":"#.utf8)
        static let metric = Array(#","m":"#.utf8)
        static let product = Array(#","p":"#.utf8)
        static let currency = Array(#","c":"#.utf8)
        static let cohort = Array(#","h":"#.utf8)
        static let value = Array(#","v":"#.utf8)
    }

    /// The strings of one field one encoding has quoted (``JSONText/appendQuoted(_:to:escapingSlashes:)``,
    /// slashes as they are), up to ``limit`` of them, the last one used tried first; a string past
    /// those is quoted each time.
    private struct QuotedStrings {
        static let limit = 16
        private var strings: [String] = []
        private var quoted: [[UInt8]] = []
        private var last = 0

        mutating func append(_ string: String, to bytes: inout [UInt8]) {
            if last < strings.count, strings[last] == string {
                bytes.append(contentsOf: quoted[last])
                return
            }
            if let index = strings.firstIndex(of: string) {
                last = index
                bytes.append(contentsOf: quoted[index])
                return
            }
            var text = ""
            JSONText.appendQuoted(string, to: &text, escapingSlashes: false)
            bytes.append(contentsOf: text.utf8)
            if strings.count < Self.limit {
                last = strings.count
                strings.append(string)
                quoted.append(Array(text.utf8))
            }
        }
    }

    /// `value` in decimal digits.
    private static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var low = bytes.count
        repeat {
            bytes.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        var high = bytes.count - 1
        while low < high {
            bytes.swapAt(low, high)
            low += 1
            high -= 1
        }
    }

    static func decode(_ text: String, appUserID: String) throws(StorageError) -> AnalyticsCells {
        if let cells = read(text) { return cells }
        return try decoded(text, appUserID: appUserID)
    }

    /// The cells read with `JSONDecoder`: what ``read(_:)`` leaves to it, and its reference.
    static func decoded(_ text: String, appUserID: String) throws(StorageError) -> AnalyticsCells {
        let rows: [Row]
        do {
            rows = try SQLLedgerStore.decoder().decode([Row].self, from: Data(text.utf8))
        } catch {
            throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) do not decode", underlying: error)
        }
        var cells = AnalyticsCells(minimumCapacity: rows.count)
        for row in rows {
            guard let metric = AnalyticsMetric(rawValue: row.m) else {
                throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) name an unknown metric \(row.m)")
            }
            cells[AnalyticsKey(day: row.d, metric: metric, product: row.p, currency: row.c, cohort: row.h)] = row.v
        }
        return cells
    }

    /// The cells as this type writes them, read with `JSONCursor`; `nil` for anything else (an
    /// escape, another key, an unknown metric), which `JSONDecoder` reads or reports.
    static func read(_ text: String) -> AnalyticsCells? {
        JSONCursor.read(text) { cursor in
            var cells = AnalyticsCells()
            let read = cursor.array { cursor in
                var day: Int?
                var metric: AnalyticsMetric?
                var product: String?
                var currency: String?
                var cohort: String?
                var value: Int64?
                guard cursor.object({ cursor, key in
                    switch key {
                    case "d": JSONCursor.set(&day, cursor.integer(Int.self))
                    case "m": JSONCursor.set(&metric, cursor.string().flatMap(AnalyticsMetric.init(rawValue:)))
                    case "p": JSONCursor.set(&product, cursor.string())
                    case "c": JSONCursor.set(&currency, cursor.string())
                    case "h": JSONCursor.set(&cohort, cursor.string())
                    case "v": JSONCursor.set(&value, cursor.integer(Int64.self))
                    default: false
                    }
                }), let day, let metric, let product, let currency, let cohort, let value else { return false }
                cells[AnalyticsKey(day: day, metric: metric, product: product, currency: currency, cohort: cohort)] = value
                return true
            }
            return read ? cells : nil
        }
    }
}
