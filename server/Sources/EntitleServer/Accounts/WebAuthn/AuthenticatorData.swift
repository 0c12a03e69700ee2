import Foundation

/// An authenticator's data (WebAuthn §6.1): the relying party's ID hash, the flags, the signature
/// counter, and — when registering — the new credential's ID and COSE public key.
struct AuthenticatorData: Sendable {
    var rpIDHash: Data
    var userPresent: Bool
    var userVerified: Bool
    var signCount: UInt32
    var credentialID: Data?
    /// The credential's public key (X9.63) when it is ES256 on P-256, the only kind the dashboard asks for.
    var publicKey: Data?

    struct Invalid: Error {
        let reason: String
    }

    init(_ data: Data) throws(Invalid) {
        let bytes = Array(data)
        guard bytes.count >= 37 else { throw Invalid(reason: "the authenticator data is \(bytes.count) bytes, under 37") }
        rpIDHash = Data(bytes[0..<32])
        let flags = bytes[32]
        userPresent = flags & 0x01 != 0
        userVerified = flags & 0x04 != 0
        signCount = bytes[33..<37].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        guard flags & 0x40 != 0 else { return }
        // Attested credential data: AAGUID (16), the ID's length (2), the ID, the COSE key.
        guard bytes.count >= 55 else { throw Invalid(reason: "the attested credential data is cut short") }
        let length = Int(bytes[53]) << 8 | Int(bytes[54])
        guard (1...1_023).contains(length), bytes.count >= 55 + length else { throw Invalid(reason: "the credential ID's length is wrong") }
        credentialID = Data(bytes[55..<55 + length])
        let key: CBOR
        do {
            key = try CBOR.decodePrefix(Data(bytes[(55 + length)...])).item
        } catch {
            throw Invalid(reason: "the credential's public key isn't CBOR: \(error.reason)")
        }
        // COSE: kty 2 (EC2), alg -7 (ES256), crv 1 (P-256), x and y of 32 bytes.
        guard key[1]?.int == 2, key[3]?.int == -7, key[-1]?.int == 1, let x = key[-2]?.data, let y = key[-3]?.data, x.count == 32, y.count == 32 else {
            throw Invalid(reason: "the credential's key isn't an ES256 key on P-256")
        }
        publicKey = Data([0x04]) + x + y
    }
}
