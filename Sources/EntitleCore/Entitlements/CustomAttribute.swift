import Foundation

/// An attribute of the app's own (`role`, `school.district`): what targeting rules match
/// (`"attributes": {"role": ["teacher", "school"]}`) and the dashboard shows. Bounded in name, value and
/// number, so a subscriber's facts stay small whatever an app sends.
public enum CustomAttribute {
    /// At most this many attributes of the app's own per subscriber (the documented ones don't count).
    public static let maximumCount = 50
    /// A value is at most this many bytes of UTF-8.
    public static let maximumValueBytes = 500

    /// Why `name` can't name an attribute of the app's own, or `nil`: 1 to 40 ASCII letters, digits,
    /// `_`, `-` or `.`, starting with a letter.
    public static func problem(name: String) -> String? {
        guard let first = name.unicodeScalars.first, (1...40).contains(name.unicodeScalars.count), first.properties.isAlphabetic, first.isASCII,
            name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "_-.".unicodeScalars.contains($0)) })
        else { return "an attribute's name is 1 to 40 ASCII letters, digits, _, - or ., starting with a letter" }
        return nil
    }

    /// Why `value` can't be a custom attribute's value, or `nil`: 1 to ``maximumValueBytes`` bytes, no control characters.
    public static func problem(value: String) -> String? {
        guard !value.isEmpty, value.utf8.count <= maximumValueBytes, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F })
        else { return "an attribute's value is 1 to \(maximumValueBytes) bytes of printable text" }
        return nil
    }

    /// Why setting `values` (`nil` clears one) over a subscriber's `current` attributes is refused, or
    /// `nil`: each documented attribute by its rule (``SubscriberAttribute``), each of the app's own by
    /// the name and value rules, and at most ``maximumCount`` of the app's own afterwards.
    public static func problem(setting values: [String: String?], over current: [String: String]) -> String? {
        guard !values.isEmpty else { return "name at least one attribute" }
        for (key, value) in values.sorted(by: { $0.key < $1.key }) {
            if let documented = SubscriberAttribute(rawValue: key) {
                if let value, let problem = documented.problem(with: value) { return "\(key): \(problem)" }
                continue
            }
            if let problem = problem(name: key) { return "\(key): \(problem)" }
            if let value, let problem = problem(value: value) { return "\(key): \(problem)" }
        }
        var custom = Set(current.keys.filter { SubscriberAttribute(rawValue: $0) == nil })
        for (key, value) in values where SubscriberAttribute(rawValue: key) == nil {
            if value == nil { custom.remove(key) } else { custom.insert(key) }
        }
        guard custom.count <= maximumCount else {
            return "at most \(maximumCount) attributes of the app's own per subscriber (this would make \(custom.count))"
        }
        return nil
    }
}
