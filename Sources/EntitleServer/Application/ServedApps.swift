import AppStoreModels
import Foundation
import HTTPTypes

/// The apps one server serves, each with its own subscription service over its part of the ledger.
/// The first is the primary app: it adopted the rows written before apps existed, and its public keys
/// are derived as they were then.
public final class ServedApps: Sendable {
    /// In configuration order.
    public let services: [SubscriptionService]
    private let byBundleID: [String: SubscriptionService]

    /// The request header that names the app when a server serves several.
    public static let header = HTTPField.Name("Entitle-App")!

    init(services: [SubscriptionService]) {
        precondition(!services.isEmpty, "a server serves at least one app")
        self.services = services
        byBundleID = Dictionary(services.map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var primary: SubscriptionService { services[0] }

    public func service(bundleID: String) -> SubscriptionService? { byBundleID[bundleID] }

    /// The app a request is for: the one the `Entitle-App` header names, or the only one served.
    func service(named header: String?) throws(ServiceError) -> SubscriptionService {
        guard let header else {
            guard services.count == 1 else {
                throw ServiceError(
                    .unknownApp,
                    "this server serves \(services.count) apps (\(services.map(\.bundleID).joined(separator: ", "))): name one with the Entitle-App header")
            }
            return primary
        }
        guard let service = byBundleID[header] else {
            throw ServiceError(.unknownApp, "\(header) is not an app this server serves")
        }
        return service
    }

    /// The app a signed notification is for, by the bundle ID in its payload, before verification:
    /// that app's verifiers then check the signature and the bundle ID itself. A payload naming no
    /// app of this server goes to the primary app, whose verifiers refuse it.
    func service(forSignedNotification signedPayload: String) -> SubscriptionService {
        guard services.count > 1 else { return primary }
        return Self.bundleID(ofSignedNotification: signedPayload).flatMap { byBundleID[$0] } ?? primary
    }

    /// The bundle ID a signed notification's payload names in `data`, `summary` or
    /// `externalPurchaseToken`, unverified; `nil` when it names none or isn't a JWS of JSON. The payload
    /// is read with ``JSONCursor`` (the notification's nested JWS are kilobytes of string to step over),
    /// or with `JSONDecoder` when the cursor can't read it exactly.
    static func bundleID(ofSignedNotification signedPayload: String) -> String? {
        var text = signedPayload
        guard let json = text.withUTF8({ bytes -> [UInt8]? in
            guard let base = bytes.baseAddress, let first = memchr(base, Int32(UInt8(ascii: ".")), bytes.count) else { return nil }
            let start = base.distance(to: first.assumingMemoryBound(to: UInt8.self)) + 1
            guard let second = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start) else { return nil }
            let end = base.distance(to: second.assumingMemoryBound(to: UInt8.self))
            return Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }) else { return nil }
        let payload = json.withUnsafeBufferPointer { BundleOnly.read($0) } ?? (try? JSONDecoder().decode(BundleOnly.self, from: Data(json)))
        guard let payload else { return nil }
        return payload.data?.bundleId ?? payload.summary?.bundleId ?? payload.externalPurchaseToken?.bundleId
    }

    struct BundleOnly: Decodable, Equatable {
        struct Part: Decodable, Equatable { var bundleId: String? }
        var data: Part?
        var summary: Part?
        var externalPurchaseToken: Part?

        /// What `JSONDecoder` reads from `json`, read with the cursor; `nil` when the cursor can't read it
        /// exactly (an escape, a `null`, a key twice…).
        static func read(_ json: UnsafeBufferPointer<UInt8>) -> BundleOnly? {
            JSONCursor.read(json) { cursor in
                var payload = BundleOnly()
                let read = cursor.object { cursor, key in
                    switch key {
                    case "data": JSONCursor.set(&payload.data, Part.read(&cursor))
                    case "summary": JSONCursor.set(&payload.summary, Part.read(&cursor))
                    case "externalPurchaseToken": JSONCursor.set(&payload.externalPurchaseToken, Part.read(&cursor))
                    default: cursor.skipValue()
                    }
                }
                return read ? payload : nil
            }
        }
    }
}

extension ServedApps.BundleOnly.Part {
    fileprivate static func read(_ cursor: inout JSONCursor) -> Self? {
        var part = Self()
        let read = cursor.object { cursor, key in
            key == "bundleId" ? JSONCursor.set(&part.bundleId, cursor.string()) : cursor.skipValue()
        }
        return read ? part : nil
    }
}
