import AppStoreModels
import Foundation

/// A JWS in compact serialization, split and decoded but not yet trusted.
struct CompactJWS: Sendable {
    /// `header.payload`: the bytes the signature covers.
    let signingInput: Substring
    /// The header segment as sent, which identifies the exact certificate chain.
    let headerSegment: Substring
    let payload: [UInt8]
    /// The raw ECDSA signature, r‖s.
    let signature: [UInt8]

    /// Splits `text` into its three segments and decodes the payload and signature. The header stays
    /// encoded until it is needed.
    init(_ text: String) throws(VerificationError) {
        let utf8 = text.utf8
        guard let firstDot = utf8.firstIndex(of: UInt8(ascii: ".")) else {
            throw VerificationError(.malformed, "not a compact JWS: expected three segments separated by dots")
        }
        let afterFirst = utf8.index(after: firstDot)
        guard let secondDot = utf8[afterFirst...].firstIndex(of: UInt8(ascii: ".")) else {
            throw VerificationError(.malformed, "not a compact JWS: expected three segments separated by dots")
        }
        let afterSecond = utf8.index(after: secondDot)
        guard utf8[afterSecond...].firstIndex(of: UInt8(ascii: ".")) == nil else {
            throw VerificationError(.malformed, "not a compact JWS: more than three segments")
        }
        let header = text[..<firstDot]
        let payloadSegment = text[afterFirst..<secondDot]
        let signatureSegment = text[afterSecond...]
        guard !header.isEmpty, !payloadSegment.isEmpty, !signatureSegment.isEmpty else {
            throw VerificationError(.malformed, "not a compact JWS: an empty segment")
        }
        guard let payload = Base64URL.decode(payloadSegment.utf8) else {
            throw VerificationError(.malformed, "the payload is not base64url")
        }
        guard let signature = Base64URL.decode(signatureSegment.utf8) else {
            throw VerificationError(.malformed, "the signature is not base64url")
        }
        self.headerSegment = header
        self.signingInput = text[..<secondDot]
        self.payload = payload
        self.signature = signature
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
