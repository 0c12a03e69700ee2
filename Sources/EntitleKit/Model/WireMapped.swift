import EntitleWire

/// One of EntitleKit's enums over values the API spells as strings (a state, a period, a paywall): its
/// known values are cases, and a value a newer server sends is kept in `other`, so an app's `switch` is
/// exhaustive and nothing fails to read.
protocol APIValue: Hashable, Sendable, CustomStringConvertible {
    /// The known cases and how the API spells each.
    static var spellings: [(rawValue: String, value: Self)] { get }
    static func other(_ rawValue: String) -> Self
    /// The API's value when the case is `other`.
    var otherValue: String? { get }
}

extension APIValue {
    init(rawValue: String) {
        self = Self.spellings.first { $0.rawValue == rawValue }?.value ?? .other(rawValue)
    }

    /// The value as the API spells it (`grace_period`): each enum's public `rawValue` and `description`.
    var wireRawValue: String {
        otherValue ?? Self.spellings.first { $0.value == self }?.rawValue ?? ""
    }
}

/// An ``APIValue`` over one of EntitleWire's vocabularies, read from its values.
protocol WireMapped: APIValue {
    associatedtype Wire: WireVocabulary
    /// The known cases and the API's value of each.
    static var cases: [(wire: Wire, value: Self)] { get }
}

extension WireMapped {
    static var spellings: [(rawValue: String, value: Self)] { cases.map { ($0.wire.rawValue, $0.value) } }

    init(_ wire: Wire) {
        self = Self.cases.first { $0.wire == wire }?.value ?? .other(wire.rawValue)
    }
}
