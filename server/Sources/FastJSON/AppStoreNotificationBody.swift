import AppStoreModels
import Foundation

/// An App Store Server Notification's HTTP body before verification: the signed payload it carries
/// (`{"signedPayload": "…"}`), and the app that payload names, so a server with several apps knows whose
/// verifiers check it. Both are read with ``JSONCursor``, stepping over the kilobytes of nested JWS a
/// notification carries; what the cursor can't read exactly is left to `JSONDecoder`. Nothing read here
/// is trusted: the verifier checks the signature and the bundle ID afterwards.
public enum AppStoreNotificationBody {
    /// `body`'s signed payload, or `nil` when `body` isn't `{"signedPayload": "…"}` as the cursor reads it
    /// (another member, an escape…): the caller then decodes it as any request body.
    public static func signedPayload(_ body: UnsafeRawBufferPointer) -> String? {
        JSONCursor.read(body.bindMemory(to: UInt8.self)) { cursor in
            var signedPayload: String?
            let read = cursor.object { cursor, key in key == "signedPayload" && JSONCursor.set(&signedPayload, cursor.string()) }
            return read ? signedPayload : nil
        }
    }

    /// The bundle ID the payload of `signedPayload` names in `data`, `summary` or
    /// `externalPurchaseToken` (the first of them that has one), unverified; `nil` when it names none or
    /// isn't a JWS whose payload is JSON.
    public static func bundleID(ofSignedPayload signedPayload: String) -> String? {
        guard let json = payload(ofSignedPayload: signedPayload) else { return nil }
        let route = json.withUnsafeBufferPointer { Route.read($0) } ?? (try? JSONDecoder().decode(Route.self, from: Data(json)))
        guard let route else { return nil }
        return route.data?.bundleId ?? route.summary?.bundleId ?? route.externalPurchaseToken?.bundleId
    }

    /// The App Apple ID a signed payload names at its top level (`appAppleId`, as Apple's real-time retention
    /// requests carry it), unverified; `nil` when it names none or isn't a JWS whose payload is JSON.
    public static func appAppleID(ofSignedPayload signedPayload: String) -> Int64? {
        guard let json = payload(ofSignedPayload: signedPayload) else { return nil }
        struct Top: Decodable { var appAppleId: Int64? }
        return (try? JSONDecoder().decode(Top.self, from: Data(json)))?.appAppleId
    }

    /// The payload of a compact JWS, base64url-decoded, unverified; `nil` when it isn't three parts.
    private static func payload(ofSignedPayload signedPayload: String) -> [UInt8]? {
        var text = signedPayload
        return text.withUTF8 { bytes -> [UInt8]? in
            guard let first = CompactSerialization.dot(in: bytes, from: 0), let second = CompactSerialization.dot(in: bytes, from: first + 1)
            else { return nil }
            return Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second]))
        }
    }

    /// The members of a notification's payload that name its app.
    public struct Route: Decodable, Equatable, Sendable {
        public struct Part: Decodable, Equatable, Sendable {
            public var bundleId: String?
        }

        public var data: Part?
        public var summary: Part?
        public var externalPurchaseToken: Part?

        /// What `JSONDecoder` reads of `json`, read with the cursor; `nil` when the cursor can't read it
        /// exactly (an escape, a `null`, a key twice…).
        public static func read(_ json: UnsafeBufferPointer<UInt8>) -> Route? {
            JSONCursor.read(json) { cursor in
                var route = Route()
                let read = cursor.object { cursor, key in
                    switch key {
                    case "data": JSONCursor.set(&route.data, Part.read(&cursor))
                    case "summary": JSONCursor.set(&route.summary, Part.read(&cursor))
                    case "externalPurchaseToken": JSONCursor.set(&route.externalPurchaseToken, Part.read(&cursor))
                    default: cursor.skipValue()
                    }
                }
                return read ? route : nil
            }
        }
    }
}

extension AppStoreNotificationBody.Route.Part {
    fileprivate static func read(_ cursor: inout JSONCursor) -> Self? {
        var part = Self()
        let read = cursor.object { cursor, key in
            key == "bundleId" ? JSONCursor.set(&part.bundleId, cursor.string()) : cursor.skipValue()
        }
        return read ? part : nil
    }
}
