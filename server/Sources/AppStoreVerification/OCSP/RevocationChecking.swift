import Foundation

/// Online revocation checking (OCSP) of the intermediate and leaf; off unless configured.
///
/// With it on, chains are validated at the current instant rather than the payload's signedDate,
/// and a validated chain is trusted for `freshness` before its status is checked again.
public struct RevocationChecking: Sendable {
    public var transport: any RevocationTransport
    /// How long a chain whose status was confirmed is trusted before it is checked again.
    public var freshness: TimeInterval

    public init(transport: any RevocationTransport, freshness: TimeInterval = 3600) {
        self.transport = transport
        self.freshness = freshness
    }
}
