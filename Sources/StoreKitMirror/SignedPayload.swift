#if !canImport(StoreKit)
import AppStoreModels
import Foundation

/// The mirror's own: the payload of a compact JWS, decoded as StoreKit decodes what the App Store
/// signed (Apple's JSON, dates in milliseconds). The signature is not checked here: the backend says
/// whether the device's checks passed, and Entitle's server verifies every JWS itself.
enum SignedPayload {
    static func decode<Payload: Decodable>(_ type: Payload.Type, from jws: String) -> (payload: Payload, json: Data)? {
        guard let json = CompactSerialization.unverifiedPayloadJSON(of: jws),
            let payload = try? AppStoreJSON.decoder().decode(Payload.self, from: json)
        else { return nil }
        return (payload, json)
    }

    /// Apple's identifiers are decimal digits: StoreKit's `UInt64`.
    static func identifier(_ text: String?) -> UInt64? {
        guard let text, !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return UInt64(text)
    }
}
#endif
