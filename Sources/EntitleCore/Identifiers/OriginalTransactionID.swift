/// Apple's `originalTransactionId`: one purchase chain (a subscription and its renewals, or a one-time purchase).
public struct OriginalTransactionID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The ledger's key for a customer's app transaction (`appTransactionId`): linked to the subscriber whose
    /// transactions carry it, so what Apple says of the app rather than a purchase (RESCIND_CONSENT) reaches
    /// that subscriber the way a purchase chain's events do. Not a purchase chain Apple knows.
    public static func appTransaction(_ appTransactionID: String) -> OriginalTransactionID {
        OriginalTransactionID(rawValue: appTransactionPrefix + appTransactionID)
    }

    /// The app transaction ID this key stands for, when it is one (``appTransaction(_:)``).
    public var appTransactionID: String? {
        rawValue.hasPrefix(Self.appTransactionPrefix) ? String(rawValue.dropFirst(Self.appTransactionPrefix.count)) : nil
    }

    static let appTransactionPrefix = "app-transaction:"
}
