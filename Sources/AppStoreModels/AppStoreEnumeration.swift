import Foundation

/// A value from one of Apple's enumerations that keeps whatever raw value Apple sent.
///
/// Apple adds enumeration values over time. A decoder that fails on a value it doesn't know turns a
/// harmless addition into lost purchases, so every Apple enumeration here is a struct around its raw
/// value: decoding never fails, `isKnown` says whether this version of Entitle knows the value, and
/// `name` gives the documented name for known values.
public protocol AppStoreEnumeration: RawRepresentable, Codable, Hashable, Sendable, CustomStringConvertible
where RawValue: Codable & Hashable & Sendable & CustomStringConvertible {
    init(rawValue: RawValue)
    /// Every value Apple documents, with its documented name.
    static var documented: [(value: Self, name: String)] { get }
}

extension AppStoreEnumeration {
    /// Whether Apple documents this value (as of this version of Entitle).
    public var isKnown: Bool { Self.documented.contains { $0.value == self } }

    /// The documented name of this value, or `nil` when Apple sent a value Entitle doesn't know yet.
    public var name: String? { Self.documented.first { $0.value == self }?.name }

    public var description: String { name ?? "unknown(\(rawValue))" }

    public init(from decoder: any Decoder) throws {
        self.init(rawValue: try decoder.singleValueContainer().decode(RawValue.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}
