/// The name of a consumer of the ledger (its durable cursor's key): `webhooks`, `consumption-requests`…
public struct LedgerConsumer: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String

    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    public var description: String { rawValue }
}
