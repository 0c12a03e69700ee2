import EntitleWire

/// One of EntitleKit's enums over a vocabulary of the API (a state, a reason, a paywall): its known values
/// are cases, and a value a newer server sends is kept in `other`, so an app's `switch` is exhaustive and
/// nothing fails to read.
protocol WireMapped: Hashable, Sendable, CustomStringConvertible {
    associatedtype Wire: WireVocabulary
    /// The known cases and the API's value of each.
    static var cases: [(wire: Wire, value: Self)] { get }
    static func other(_ rawValue: String) -> Self
    /// The API's value when the case is `other`.
    var otherValue: String? { get }
}

extension WireMapped {
    init(_ wire: Wire) {
        self = Self.cases.first { $0.wire == wire }?.value ?? .other(wire.rawValue)
    }

    /// The value as the API spells it (`grace_period`): each enum's public `rawValue` and `description`.
    var wireRawValue: String {
        otherValue ?? Self.cases.first { $0.value == self }?.wire.rawValue ?? ""
    }
}
