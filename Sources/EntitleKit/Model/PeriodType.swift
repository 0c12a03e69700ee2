/// The kind of period a subscription is in, as Apple's transactions tell it.
public enum PeriodType: APIValue {
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

    static let spellings: [(rawValue: String, value: PeriodType)] = [
        ("normal", .normal), ("trial", .trial), ("intro", .intro), ("promotional", .promotional), ("offer_code", .offerCode),
        ("win_back", .winBack), ("prepaid", .prepaid), ("lifetime", .lifetime),
    ]

    var otherValue: String? { if case .other(let value) = self { value } else { nil } }

    /// The period as the API spells it (`offer_code`).
    public var rawValue: String { wireRawValue }
    public var description: String { wireRawValue }
}
