import Foundation

/// The body Apple posts to your Get Retention Message endpoint.
///
/// [RealtimeRequestBody](https://developer.apple.com/documentation/retentionmessaging/realtimerequestbody)
public struct RealtimeRequestBody: Codable, Hashable, Sendable {
    /// A ``DecodedRealtimeRequestBody``, signed by the App Store (JWS with its x5c chain).
    public var signedPayload: String

    public init(signedPayload: String) {
        self.signedPayload = signedPayload
    }
}
