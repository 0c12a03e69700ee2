import EntitleWire

/// The paywall an app shows for a denial or a lapse.
public enum Paywall: WireMapped {
    /// Never subscribed: the offering.
    case subscribe
    /// Expired or refunded: come back.
    case renew
    /// A higher tier grants it (a limit, a feature the tier lacks).
    case upgrade
    /// The app's own trial ended: convert it.
    case convertTrial
    /// A billing issue: send the user to update their payment method.
    case updatePayment
    /// A paywall this version of EntitleKit doesn't know, as the server named it.
    case other(String)

    static let cases: [(wire: EntitleWire.Paywall, value: Paywall)] = [
        (.subscribe, .subscribe), (.renew, .renew), (.upgrade, .upgrade), (.convertTrial, .convertTrial), (.updatePayment, .updatePayment),
    ]

    var otherValue: String? { if case .other(let value) = self { value } else { nil } }


    /// The value as the API spells it.

    public var rawValue: String { wireRawValue }

    public var description: String { wireRawValue }
}
