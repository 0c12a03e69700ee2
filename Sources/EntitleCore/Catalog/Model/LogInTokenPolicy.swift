import Foundation

/// How an app's users prove who they are when they log in (docs/identity.md): the P-256 public keys of
/// the app's backend, which signs short-lived log-in tokens, and whether app keys need them.
public struct LogInTokenPolicy: Hashable, Sendable {
    /// Key ID → the key's X9.63 representation (65 bytes: `04 ‖ x ‖ y`), read from its PEM.
    public var publicKeys: [String: [UInt8]]
    /// App keys reach anonymous subscribers only; a known user needs their own public key, which a
    /// log-in with a token returns.
    public var requiredForAppKeys: Bool

    public init(publicKeys: [String: [UInt8]], requiredForAppKeys: Bool) {
        self.publicKeys = publicKeys
        self.requiredForAppKeys = requiredForAppKeys
    }

    /// The DER prefix of every P-256 `SubjectPublicKeyInfo` (id-ecPublicKey, prime256v1, a 66-byte
    /// bit string), after which come the 65 bytes of the uncompressed point.
    static let subjectPublicKeyInfoPrefix: [UInt8] = [
        0x30, 0x59, 0x30, 0x13, 0x06, 0x07, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x02, 0x01, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D,
        0x03, 0x01, 0x07, 0x03, 0x42, 0x00,
    ]

    /// The uncompressed point of a PEM P-256 public key, or `nil` for anything else (another curve, a
    /// private key, a certificate, broken base64). Whether the point is on the curve is checked where
    /// the key is used, by the crypto library.
    public static func point(fromPEM text: String) -> [UInt8]? {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard lines.first == "-----BEGIN PUBLIC KEY-----", lines.last == "-----END PUBLIC KEY-----", lines.count >= 3 else { return nil }
        guard let der = Data(base64Encoded: lines.dropFirst().dropLast().joined()), der.count == subjectPublicKeyInfoPrefix.count + 65
        else { return nil }
        let bytes = [UInt8](der)
        guard bytes.starts(with: subjectPublicKeyInfoPrefix), bytes[subjectPublicKeyInfoPrefix.count] == 0x04 else { return nil }
        return Array(bytes.dropFirst(subjectPublicKeyInfoPrefix.count))
    }
}
