import Foundation

/// JWS compact serialization (`header.payload.signature`) read from its UTF-8 in place. Public for the
/// server package's readers (FastJSON, AppStoreVerification); not part of the SDK's API.
public enum CompactSerialization {
    /// Where the first dot at or after `start` is in `bytes`, found with `memchr`.
    public static func dot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
