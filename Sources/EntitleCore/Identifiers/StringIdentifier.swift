/// An identifier that crosses modules as a small type of its own rather than a bare `String`, so a
/// parameter says which identifier it takes: ``AppUserID``, ``BundleID``, ``OriginalTransactionID``,
/// ``ProductID``. It is its text, encodes as that text, and is written as a string literal.
public protocol StringIdentifier: RawRepresentable, Hashable, Comparable, Codable, CodingKeyRepresentable, Sendable,
    CustomStringConvertible, ExpressibleByStringInterpolation
where RawValue == String, StringLiteralType == String {
    init(rawValue: String)
}

extension StringIdentifier {
    public init(_ text: String) { self.init(rawValue: text) }
    public init(stringLiteral value: String) { self.init(rawValue: value) }
    public init(stringInterpolation: DefaultStringInterpolation) { self.init(rawValue: String(stringInterpolation: stringInterpolation)) }
    public var description: String { rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    /// As a dictionary's key it is its text too: `[AppUserID: T]` encodes as a JSON object.
    public var codingKey: any CodingKey { IdentifierKey(stringValue: rawValue) }
    public init?<T: CodingKey>(codingKey: T) { self.init(rawValue: codingKey.stringValue) }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// The coding key of an identifier used as a dictionary's key.
struct IdentifierKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
