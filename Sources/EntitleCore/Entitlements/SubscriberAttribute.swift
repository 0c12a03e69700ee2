import Foundation

/// The subscriber attributes an app may set, each with its rule. The time zone decides when calendar
/// quota windows reset (local midnight); the others are for the operator's dashboard and webhooks.
public enum SubscriberAttribute: String, CaseIterable, Sendable {
    /// An IANA time zone (`Europe/Berlin`): calendar quotas reset at the subscriber's midnight.
    case timeZone
    case email
    case displayName
    /// A BCP 47 language tag or POSIX locale (`de-DE`, `de_DE`).
    case locale

    /// Why `value` is not acceptable, or `nil` when it is.
    public func problem(with value: String) -> String? {
        switch self {
        case .timeZone:
            return TimeZone(identifier: value) == nil ? "\(value) is not an IANA time zone (such as Europe/Berlin)" : nil
        case .email:
            let parts = value.split(separator: "@", omittingEmptySubsequences: false)
            guard value.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
                !value.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 })
            else { return "an email is name@domain, at most 254 bytes" }
            return nil
        case .displayName:
            guard !value.isEmpty, value.count <= 100, !value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
                return "a display name is 1 to 100 printable characters"
            }
            return nil
        case .locale:
            guard (2...35).contains(value.count), value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
                return "a locale is a language tag such as de-DE or de_DE"
            }
            return nil
        }
    }
}
