import Foundation

/// The app's opt-in to answering Apple's CONSUMPTION_REQUEST notifications (`consumptionInformation`
/// in the entitlements file). Present means the app collects its customers' consent, as Apple requires.
public struct ConsumptionInformationDocument: Decodable, Sendable, Hashable {
    /// `GRANT_FULL`, `DECLINE` or `GRANT_PRORATED`; no preference when absent.
    public var refundPreference: String?
}
