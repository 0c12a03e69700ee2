import Foundation

/// A limit or quota amount in the entitlements file: a non-negative whole number or `"unlimited"`.
public enum AllowanceDocument: Decodable, Sendable, Hashable {
    case count(Int)
    case unlimited
    /// Anything else; kept so validation can say what was there.
    case invalid(String)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            self = .count(number)
        } else if let text = try? container.decode(String.self) {
            self = text == "unlimited" ? .unlimited : .invalid("\"\(text)\"")
        } else if let number = try? container.decode(Double.self) {
            self = .invalid(String(number))
        } else {
            throw DecodingError.typeMismatch(
                Int.self,
                .init(codingPath: decoder.codingPath, debugDescription: "expected a whole number or \"unlimited\""))
        }
    }
}
