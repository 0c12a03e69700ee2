import Foundation

/// Sends an OCSP request to a responder and returns its DER response. Implementations carry the
/// bytes only; the OCSP policy of swift-certificates verifies the response.
public protocol RevocationTransport: Sendable {
    /// Throws when the responder can't be reached or doesn't answer 200: a retryable condition.
    func send(request: [UInt8], to uri: String) async throws -> [UInt8]
}
