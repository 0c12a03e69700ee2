import EntitleCore
import Foundation

/// HTML escaping for server-rendered pages.
enum HTML {
    /// `text` safe inside an element or a double-quoted attribute.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }

    /// Milliunits as a decimal amount with two places and its currency: 8236320 → "8,236.32 USD".
    static func money(_ milliunits: Int64, _ currency: String) -> String {
        "\(amount(milliunits)) \(currency)"
    }

    /// Milliunits as a decimal amount with two places, thousands grouped: 8236320 → "8,236.32" (a
    /// column names its currency once, in its header).
    static func amount(_ milliunits: Int64) -> String {
        let cents = (Double(milliunits) / 10).rounded()
        let absolute = Int64(saturating: abs(cents))
        return "\(cents < 0 ? "-" : "")\(count(absolute / 100)).\(String(format: "%02d", absolute % 100))"
    }

    /// A whole number with its thousands grouped: 12345 → "12,345".
    static func count(_ value: Int64) -> String {
        let digits = String(value.magnitude)
        var grouped = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += "," }
            grouped.append(digit)
        }
        return (value < 0 ? "-" : "") + grouped
    }

    /// A rate as a percentage with one decimal, or an en dash when there's nothing to divide by.
    static func percent(_ rate: Double?) -> String {
        guard let rate else { return "–" }
        return String(format: "%.1f%%", rate * 100)
    }
}
