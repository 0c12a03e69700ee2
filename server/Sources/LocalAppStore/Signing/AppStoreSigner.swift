import AppStoreModels
import Crypto
import Foundation
import SwiftASN1
import X509

/// Signs payloads the way the App Store does: a compact JWS, ES256 (P-256, raw r‖s), with the chain
/// in `x5c` (leaf, intermediate, root) and dates as milliseconds since 1970.
public struct AppStoreSigner: Sendable {
    private let key: P256.Signing.PrivateKey
    private let headerSegment: String

    /// - Parameters:
    ///   - key: the leaf certificate's private key.
    ///   - chain: leaf, intermediate, root.
    public init(key: P256.Signing.PrivateKey, chain: [Certificate]) throws(LocalStoreError) {
        var x5c: [String] = []
        for certificate in chain {
            var serializer = DER.Serializer()
            do {
                try serializer.serialize(certificate)
            } catch {
                throw LocalStoreError(.signing, "a certificate of the chain does not serialise: \(error)")
            }
            x5c.append(Data(serializer.serializedBytes).base64EncodedString())
        }
        let header = #"{"alg":"ES256","x5c":["# + x5c.map { "\"\($0)\"" }.joined(separator: ",") + "]}"
        self.key = key
        self.headerSegment = Self.base64URL(Data(header.utf8))
    }

    /// A compact JWS of `payload`.
    public func sign(payload: Data) throws(LocalStoreError) -> String {
        let input = headerSegment + "." + Self.base64URL(payload)
        do {
            let signature = try key.signature(for: Data(input.utf8))
            return input + "." + Self.base64URL(signature.rawRepresentation)
        } catch {
            throw LocalStoreError(.signing, "ES256 signing failed: \(error)")
        }
    }

    /// A compact JWS of `value` encoded as Apple encodes it.
    public func sign<Payload: Encodable>(_ value: Payload) throws(LocalStoreError) -> String {
        let data: Data
        do {
            data = try Self.encoder.encode(value)
        } catch {
            throw LocalStoreError(.signing, "the payload does not encode: \(error)")
        }
        return try sign(payload: data)
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return encoder
    }()

    /// Base64url without padding (RFC 7515).
    public static func base64URL(_ data: Data) -> String { Base64URL.encode(data) }
}
