/// Apple's `originalTransactionId`: one purchase chain (a subscription and its renewals, or a one-time purchase).
public struct OriginalTransactionID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
