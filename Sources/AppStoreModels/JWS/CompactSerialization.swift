import Foundation

/// JWS compact serialization (`header.payload.signature`) read from its UTF-8 in place.
package enum CompactSerialization {
    /// Where the first dot at or after `start` is in `bytes`, found with `memchr`.
    package static func dot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
