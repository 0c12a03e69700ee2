/// The entitlements file's `analytics`: what the figures need to know about the developer.
public struct AnalyticsDocument: Decodable, Sendable, Hashable {
    /// Whether the developer is in Apple's App Store Small Business Program (a 15% commission on
    /// everything).
    public var smallBusinessProgram: Bool?
}
