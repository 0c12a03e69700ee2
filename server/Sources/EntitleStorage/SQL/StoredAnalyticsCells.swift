import AppStoreModels
import EntitleAnalytics
import EntitleCore
import FastJSON
import Foundation

/// A subscriber's analytics cells as stored in `analytics_contributions.cells`: a JSON object
/// `{"s": [strings], "c": [integers]}`, where `s` holds each distinct metric, product, currency and
/// cohort once and `c` six integers a cell: day, the metric's, product's, currency's and cohort's
/// positions in `s`, and value.
///
/// A refresh reads and writes these for every subscriber it touches. Earlier versions wrote an array of
/// `{"d": day, "m": metric, "p": product, "c": currency, "h": cohort, "v": value}` objects, about 3.5
/// times longer (~90 bytes a cell against ~26, the strings included, for a 200,000-event ledger's
/// subscribers) with every string repeated and decoded again in every cell; both are read, and the
/// rows written so are rewritten in this form when their subscriber is next refreshed. `JSONCursor`
/// reads either; what it doesn't (an escape, another key order) `JSONDecoder` reads.
enum StoredAnalyticsCells {
    /// A cell as earlier versions stored it.
    private struct Row: Decodable {
        var d: Int
        var m: String
        var p: String
        var c: String
        var h: String
        var v: Int64
    }

    /// The cells as this type writes them.
    private struct Table: Decodable {
        var s: [String]
        var c: [Int64]
    }

    /// The JSON text of `cells`, in no particular order (they are read back into a dictionary).
    ///
    /// Written as bytes, each string quoted once (``JSONText/appendQuoted(_:to:escapingSlashes:)``,
    /// slashes as they are): appending to a `String` piece by piece, every string checked for escapes
    /// each time, was 17% of computing a refresh's cells.
    static func encode(_ cells: AnalyticsCells) -> String {
        var strings = StringTable()
        var numbers: [UInt8] = []
        numbers.reserveCapacity(cells.count * 24)
        func appendPosition(of string: String) {
            numbers.append(UInt8(ascii: ","))
            appendDecimal(Int64(strings.position(of: string)), to: &numbers)
        }
        for (key, value) in cells {
            if !numbers.isEmpty { numbers.append(UInt8(ascii: ",")) }
            appendDecimal(Int64(key.day), to: &numbers)
            appendPosition(of: key.storedMetric)
            appendPosition(of: key.product)
            appendPosition(of: key.currency)
            appendPosition(of: key.cohort)
            numbers.append(UInt8(ascii: ","))
            appendDecimal(value, to: &numbers)
        }
        var text = #"{"s":["#
        for (index, string) in strings.strings.enumerated() {
            if index > 0 { text += "," }
            JSONText.appendQuoted(string, to: &text, escapingSlashes: false)
        }
        text += #"],"c":["#
        text += String(decoding: numbers, as: UTF8.self)
        text += "]}"
        return text
    }

    /// The distinct strings of one encoding, in the order first used; the last one found is tried
    /// first (a subscriber's cells repeat a few products, currencies and cohorts).
    private struct StringTable {
        private(set) var strings: [String] = []
        private var last = 0

        mutating func position(of string: String) -> Int {
            if last < strings.count, strings[last] == string { return last }
            if let index = strings.firstIndex(of: string) {
                last = index
                return index
            }
            strings.append(string)
            last = strings.count - 1
            return last
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

    static func decode(_ text: String, appUserID: AppUserID) throws(StorageError) -> AnalyticsCells {
        if let cells = read(text) { return cells }
        return try decoded(text, appUserID: appUserID)
    }

    /// The cells read with `JSONDecoder`, in either form: what ``read(_:)`` leaves to it, and its reference.
    static func decoded(_ text: String, appUserID: AppUserID) throws(StorageError) -> AnalyticsCells {
        let data = Data(text.utf8)
        if let table = try? StoredJSON.decoder().decode(Table.self, from: data) {
            guard let cells = cells(strings: table.s, numbers: table.c) else {
                throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) point past their strings or name an unknown metric")
            }
            return cells
        }
        let rows: [Row]
        do {
            rows = try StoredJSON.decoder().decode([Row].self, from: data)
        } catch {
            throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) do not decode", underlying: error)
        }
        var cells = AnalyticsCells(minimumCapacity: rows.count)
        for row in rows {
            guard let (metric, environment) = AnalyticsKey.parseStoredMetric(row.m) else {
                throw StorageError(.corruptRecord, "the analytics cells of \(appUserID) name an unknown metric \(row.m)")
            }
            cells[AnalyticsKey(day: row.d, metric: metric, product: row.p, currency: row.c, cohort: row.h, environment: environment)] = row.v
        }
        return cells
    }

    /// The cells of a table's strings and numbers, or `nil` when the numbers aren't six a cell, a
    /// position is past the strings, a day isn't an `Int`, or a metric is unknown. A cell given twice
    /// keeps its last value (as a dictionary decoded from the earlier form does).
    private static func cells(strings: [String], numbers: [Int64]) -> AnalyticsCells? {
        guard numbers.count % 6 == 0 else { return nil }
        var cells = AnalyticsCells(minimumCapacity: numbers.count / 6)
        var metrics: [(metric: AnalyticsMetric, environment: AnalyticsEnvironment)?] = Array(repeating: nil, count: strings.count)
        /// The string at a cell's position `number`, if there is one.
        func string(_ number: Int64) -> String? { number >= 0 && number < strings.count ? strings[Int(number)] : nil }
        var cell = 0
        while cell < numbers.count {
            guard let day = Int(exactly: numbers[cell]), numbers[cell + 1] >= 0, numbers[cell + 1] < strings.count,
                let product = string(numbers[cell + 2]), let currency = string(numbers[cell + 3]), let cohort = string(numbers[cell + 4])
            else { return nil }
            let position = Int(numbers[cell + 1])
            if metrics[position] == nil { metrics[position] = AnalyticsKey.parseStoredMetric(strings[position]) }
            guard let (metric, environment) = metrics[position] else { return nil }
            let key = AnalyticsKey(day: day, metric: metric, product: product, currency: currency, cohort: cohort, environment: environment)
            cells[key] = numbers[cell + 5]
            cell += 6
        }
        return cells
    }

    /// The cells read with `JSONCursor`, in either form (strings first in this type's); `nil` for
    /// anything else (an escape, another key, an unknown metric), which `JSONDecoder` reads or reports.
    static func read(_ text: String) -> AnalyticsCells? {
        var text = text
        return text.withUTF8 { bytes in
            bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }
                == UInt8(ascii: "{") ? readTable(bytes) : readRows(bytes)
        }
    }

    /// `{"s": [...], "c": [...]}`, in that order.
    private static func readTable(_ bytes: UnsafeBufferPointer<UInt8>) -> AnalyticsCells? {
        JSONCursor.read(bytes) { cursor in
            var strings: [String]?
            var cells: AnalyticsCells?
            guard cursor.object({ cursor, key in
                switch key {
                case "s" where strings == nil:
                    var read: [String] = []
                    guard cursor.array({ cursor in
                        guard let string = cursor.string() else { return false }
                        read.append(string)
                        return true
                    }) else { return false }
                    strings = read
                    return true
                case "c" where cells == nil:
                    guard let strings else { return false }
                    var numbers: [Int64] = []
                    guard cursor.array({ cursor in
                        guard let number = cursor.integer(Int64.self) else { return false }
                        numbers.append(number)
                        return true
                    }) else { return false }
                    cells = Self.cells(strings: strings, numbers: numbers)
                    return cells != nil
                default:
                    return false
                }
            }) else { return nil }
            return cells
        }
    }

    /// The earlier form: an array of objects.
    private static func readRows(_ bytes: UnsafeBufferPointer<UInt8>) -> AnalyticsCells? {
        JSONCursor.read(bytes) { cursor in
            var cells = AnalyticsCells()
            let read = cursor.array { cursor in
                var day: Int?
                var metric: (metric: AnalyticsMetric, environment: AnalyticsEnvironment)?
                var product: String?
                var currency: String?
                var cohort: String?
                var value: Int64?
                guard cursor.object({ cursor, key in
                    switch key {
                    case "d": JSONCursor.set(&day, cursor.integer(Int.self))
                    case "m": JSONCursor.set(&metric, cursor.string().flatMap(AnalyticsKey.parseStoredMetric))
                    case "p": JSONCursor.set(&product, cursor.string())
                    case "c": JSONCursor.set(&currency, cursor.string())
                    case "h": JSONCursor.set(&cohort, cursor.string())
                    case "v": JSONCursor.set(&value, cursor.integer(Int64.self))
                    default: false
                    }
                }), let day, let metric, let product, let currency, let cohort, let value else { return false }
                cells[AnalyticsKey(day: day, metric: metric.metric, product: product, currency: currency, cohort: cohort, environment: metric.environment)] = value
                return true
            }
            return read ? cells : nil
        }
    }
}
