/// The kind of period a subscription is in, as Apple's transactions tell it.
public enum PeriodType: Hashable, Sendable, CustomStringConvertible {
    /// Full price.
    case normal
    /// A free-trial introductory offer (or the app's own trial).
    case trial
    /// A paid introductory offer (pay as you go, pay up front).
    case intro
    case promotional
    case offerCode
    case winBack
    /// A non-renewing subscription.
    case prepaid
    /// A non-consumable: access until revoked.
    case lifetime
    /// A period this version of EntitleKit doesn't know, as the server named it.
    case other(String)

    private static let names: [(String, PeriodType)] = [
        ("normal", .normal), ("trial", .trial), ("intro", .intro), ("promotional", .promotional), ("offer_code", .offerCode),
        ("win_back", .winBack), ("prepaid", .prepaid), ("lifetime", .lifetime),
    ]

    init(rawValue: String) {
        self = Self.names.first { $0.0 == rawValue }?.1 ?? .other(rawValue)
    }

    /// The period as the API spells it (`offer_code`).
    public var rawValue: String {
        if case .other(let value) = self { return value }
        return Self.names.first { $0.1 == self }?.0 ?? ""
    }

    public var description: String { rawValue }
}
