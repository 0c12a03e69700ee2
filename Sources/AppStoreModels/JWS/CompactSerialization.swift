import Foundation

/// JWS compact serialization (`header.payload.signature`) read from its UTF-8 in place. Public for the
/// server package's readers (FastJSON, AppStoreVerification, the local App Store) and StoreKitMirror;
/// not part of the SDK's API.
public enum CompactSerialization {
    /// Where the first dot at or after `start` is in `bytes`, found with `memchr`.
    public static func dot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    /// The JSON of a compact JWS's payload, read without verifying anything: for what its reader signed
    /// itself or will verify elsewhere (StoreKit hands the app payloads it checked; the server verifies).
    public static func unverifiedPayloadJSON(of jws: String) -> Data? {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return Base64URL.decode(String(parts[1]))
    }

    /// A compact JWS's payload decoded as Apple's JSON (dates in milliseconds), read without verifying.
    public static func unverifiedPayload<Payload: Decodable>(of jws: String, as type: Payload.Type) -> Payload? {
        unverifiedPayloadJSON(of: jws).flatMap { try? AppStoreJSON.decoder().decode(Payload.self, from: $0) }
    }
}
