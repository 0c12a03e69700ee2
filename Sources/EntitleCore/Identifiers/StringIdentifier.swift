/// An identifier that crosses modules as a small type of its own rather than a bare `String`, so a
/// parameter says which identifier it takes: ``AppUserID``, ``BundleID``, ``OriginalTransactionID``,
/// ``ProductID``. It is its text, encodes as that text, and is written as a string literal.
public protocol StringIdentifier: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByStringInterpolation
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

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
