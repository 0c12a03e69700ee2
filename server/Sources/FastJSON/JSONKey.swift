import Foundation

/// An object's key as ``JSONCursor`` read it: its bytes in the text (no escapes, no control characters,
/// valid UTF-8), matched against literals byte for byte without making a `String`: `switch key { case
/// "productId": … }`. Valid only inside the member call it was given to.
@usableFromInline package struct JSONKey {
    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>

    @inlinable init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The key as a `String`.
    @inlinable package var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether the key is `literal`, byte for byte: stricter than `String`'s `==`, which `JSONDecoder`
    /// uses and which also takes canonically equivalent text (a key spelt with U+212A KELVIN SIGN
    /// equals the same key with `K`). A key that matches no literal is left to `JSONDecoder`, or
    /// skipped only where no key of the type has an equivalent spelling.
    @inlinable package static func == (key: JSONKey, literal: StaticString) -> Bool {
        literal.withUTF8Buffer { literal in
            guard literal.count == key.bytes.count else { return false }
            guard let l = literal.baseAddress, let k = key.bytes.baseAddress else { return literal.isEmpty }
            return memcmp(l, k, literal.count) == 0
        }
    }

    @inlinable package static func ~= (literal: StaticString, key: JSONKey) -> Bool {
        key == literal
    }
}
