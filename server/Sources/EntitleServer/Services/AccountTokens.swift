import Crypto
import EntitleCore
import Foundation

/// The appAccountToken of each subscriber: the UUID an app passes to StoreKit when it purchases, which
/// Apple signs into every transaction and renewal of the purchase, so a notification can find its
/// subscriber even when no app ever submitted the purchase.
///
/// The token of a subscriber is derived, never stored first: the first 16 bytes of
/// SHA-256(`"entitle.appAccountToken"` 0x1F bundle ID 0x1F app user ID), as an RFC 9562 version 8 UUID.
/// Every server instance derives the same one, and `GET /v1/subscribers/{id}` reports it. The server
/// registers it (token → subscriber) the first time it answers for the subscriber; an app may register
/// a token of its own as well.
public struct AccountTokens: Sendable {
    public let bundleID: BundleID
    /// Subscribers whose derived token this process registered (registration is idempotent; this only
    /// saves the write), forgotten all at once past `capacity` so memory stays bounded.
    private let registered: SeenOnce<AppUserID>
    public var capacity: Int { registered.capacity }

    public init(bundleID: BundleID, capacity: Int = 50_000) {
        self.bundleID = bundleID
        self.registered = SeenOnce(capacity: capacity)
    }

    /// The derived token of `appUserID` in this app.
    public func token(for appUserID: AppUserID) -> UUID {
        var bytes = Array(SHA256.hash(data: Data("entitle.appAccountToken\u{1F}\(bundleID)\u{1F}\(appUserID)".utf8)).prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x80  // version 8
        bytes[8] = (bytes[8] & 0x3F) | 0x80  // RFC 9562 variant
        return UUID(uuid: (
            bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
            bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }

    /// Whether `appUserID`'s derived token still needs registering in this process; marks it.
    func needsRegistering(_ appUserID: AppUserID) -> Bool {
        registered.isNew(appUserID)
    }

    /// Forgets a registration that failed, so the next answer tries again.
    func forget(_ appUserID: AppUserID) {
        registered.forget(appUserID)
    }
}
