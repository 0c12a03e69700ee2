import Foundation

/// A value of one of the API's vocabularies (an access outcome, a state, a paywall…) that keeps
/// whatever the server sent.
///
/// The server adds values over time; an app built today must still decode a response that carries one
/// it doesn't know. So each vocabulary is a struct around its raw string, never an enum that fails:
/// decoding always succeeds, `isKnown` says whether this version knows the value, and the documented
/// values are static constants to compare against (or a string literal, as in `outcome == "denied"`).
public protocol WireVocabulary: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral
where RawValue == String, StringLiteralType == String {
    init(rawValue: String)
    /// Every value this version of the API documents.
    static var known: [Self] { get }
}

extension WireVocabulary {
    /// Whether this version of the API documents the value.
    public var isKnown: Bool { Self.known.contains(self) }

    public var description: String { rawValue }

    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
