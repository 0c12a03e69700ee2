import AppStoreModels
import Foundation

/// A JWS in compact serialization, split and decoded but not yet trusted.
struct CompactJWS: Sendable {
    /// `header.payload`: the bytes the signature covers.
    let signingInput: Substring
    /// The header segment as sent, which identifies the exact certificate chain.
    let headerSegment: Substring
    /// The payload segment as sent: what follows the header and its dot in `signingInput`.
    let payloadSegment: Substring
    let payload: [UInt8]
    /// The raw ECDSA signature, r‖s.
    let signature: [UInt8]

    /// Splits `text` into its three segments and decodes the payload and signature. The header stays
    /// encoded until it is needed.
    init(_ text: String) throws(VerificationError) {
        var text = text
        let split = text.withUTF8 { Split($0) }
        guard let firstDot = split.firstDot, let secondDot = split.secondDot else {
            throw VerificationError(.malformed, "not a compact JWS: expected three segments separated by dots")
        }
        guard !split.moreDots else {
            throw VerificationError(.malformed, "not a compact JWS: more than three segments")
        }
        guard firstDot > 0, secondDot > firstDot + 1, secondDot < split.count - 1 else {
            throw VerificationError(.malformed, "not a compact JWS: an empty segment")
        }
        guard let payload = split.payload else {
            throw VerificationError(.malformed, "the payload is not base64url")
        }
        guard let signature = split.signature else {
            throw VerificationError(.malformed, "the signature is not base64url")
        }
        let utf8 = text.utf8
        self.headerSegment = text[..<utf8.index(utf8.startIndex, offsetBy: firstDot)]
        self.signingInput = text[..<utf8.index(utf8.startIndex, offsetBy: secondDot)]
        self.payloadSegment = text[utf8.index(utf8.startIndex, offsetBy: firstDot + 1)..<utf8.index(utf8.startIndex, offsetBy: secondDot)]
        self.payload = payload
        self.signature = signature
    }

    /// Where the dots are, and the payload and signature decoded, read from the text's UTF-8 in place.
    private struct Split {
        let count: Int
        var firstDot: Int?
        var secondDot: Int?
        var moreDots = false
        var payload: [UInt8]?
        var signature: [UInt8]?

        init(_ bytes: UnsafeBufferPointer<UInt8>) {
            count = bytes.count
            guard let first = CompactSerialization.dot(in: bytes, from: 0), let second = CompactSerialization.dot(in: bytes, from: first + 1)
            else { return }
            firstDot = first
            secondDot = second
            moreDots = CompactSerialization.dot(in: bytes, from: second + 1) != nil
            guard !moreDots, first > 0, second > first + 1, second < count - 1 else { return }
            payload = Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(first + 1)..<second]))
            signature = Base64URL.decode(UnsafeBufferPointer(rebasing: bytes[(second + 1)...]))
        }
    }

    /// Decodes the protected header.
    func decodeHeader() throws(VerificationError) -> JWSHeader {
        guard let bytes = Base64URL.decode(headerSegment.utf8) else {
            throw VerificationError(.malformed, "the header is not base64url")
        }
        do {
            return try JSONDecoder().decode(JWSHeader.self, from: Data(bytes))
        } catch {
            throw VerificationError(.malformed, "the header is not a JSON object with alg and x5c", underlying: error)
        }
    }
}
