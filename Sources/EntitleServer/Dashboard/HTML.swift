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

    /// Milliunits as a decimal amount with two places: 7990 → "7.99".
    static func money(_ milliunits: Int64, _ currency: String) -> String {
        let cents = (Double(milliunits) / 10).rounded()
        let sign = cents < 0 ? "-" : ""
        let absolute = Int64(abs(cents))
        return "\(sign)\(absolute / 100).\(String(format: "%02d", absolute % 100)) \(currency)"
    }

    /// A rate as a percentage with one decimal, or an en dash when there's nothing to divide by.
    static func percent(_ rate: Double?) -> String {
        guard let rate else { return "–" }
        return String(format: "%.1f%%", rate * 100)
    }
}
