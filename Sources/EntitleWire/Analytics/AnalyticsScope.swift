/// Which subscribers a report counts: real customers (`production`, the default of an app that accepts
/// Production), testers (`sandbox`: Apple's sandbox, Xcode and StoreKit local testing), or both (`all`).
/// docs/analytics.md says how a subscriber is placed.
public enum AnalyticsScope: String, Hashable, Sendable, Codable, CaseIterable {
    case production
    case sandbox
    case all
}
