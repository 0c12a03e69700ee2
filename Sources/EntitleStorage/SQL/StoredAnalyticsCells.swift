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
    static func encode(_ cells: AnalyticsCells) -> String {
        var json = "["
        json.reserveCapacity(cells.count * 64 + 2)
        var first = true
        for (key, value) in cells {
            json += first ? "{\"d\":" : ",{\"d\":"
            first = false
            json += String(key.day)
            json += ",\"m\":"
            JSONText.appendQuoted(key.metric.rawValue, to: &json, escapingSlashes: false)
            json += ",\"p\":"
            JSONText.appendQuoted(key.product, to: &json, escapingSlashes: false)
            json += ",\"c\":"
            JSONText.appendQuoted(key.currency, to: &json, escapingSlashes: false)
            json += ",\"h\":"
            JSONText.appendQuoted(key.cohort, to: &json, escapingSlashes: false)
            json += ",\"v\":"
            json += String(value)
            json += "}"
        }
        json += "]"
        return json
    }

    static func decode(_ text: String, appUserID: String) throws(StorageError) -> AnalyticsCells {
        if let cells = read(text) { return cells }
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
    private static func read(_ text: String) -> AnalyticsCells? {
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
