import AppStoreModels
import AppStoreVerification
import Crypto
import Foundation
import SwiftASN1
import X509

/// The production-shaped vectors: a P-384 root and intermediate and a P-256 leaf with Apple's OIDs.
public let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Tests/AppStoreVerificationTests/Vectors/apple-shaped")

public func vector(_ name: String) -> String {
    try! String(contentsOf: vectors.appendingPathComponent(name), encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
}

public let signedTransaction = vector("signedTransaction")
public let signedNotification = vector("signedNotification")
public let root = try! Certificate(derEncoded: Array(try! Data(contentsOf: vectors.appendingPathComponent("root.der"))))

public func makeVerifier() -> SignedDataVerifier {
    SignedDataVerifier(
        configuration: VerifierConfiguration(bundleID: "com.example", environment: .sandbox, appAppleID: 1234, rootCertificates: [root]),
        now: { Date(timeIntervalSince1970: 1_759_363_200) })
}

// MARK: - References measured in the same run

let base64URLTable: [UInt8] = {
    var table = [UInt8](repeating: 0xFF, count: 256)
    for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
        table[Int(character)] = UInt8(index)
    }
    return table
}()

/// A straightforward table-driven base64url decoder, as a JWS library has.
public func base64URLDecode<S: StringProtocol>(_ text: S) -> Data? {
    var output = [UInt8]()
    output.reserveCapacity(text.utf8.count * 3 / 4)
    var accumulator: UInt32 = 0
    var bits = 0
    for character in text.utf8 {
        let value = base64URLTable[Int(character)]
        guard value != 0xFF else { return nil }
        accumulator = (accumulator << 6) | UInt32(value)
        bits += 6
        if bits >= 8 {
            bits -= 8
            output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
        }
    }
    return Data(output)
}

public struct Header: Decodable {
    public var alg: String
}

struct ChainHeader: Decodable {
    var x5c: [String]
}

/// The leaf's key, extracted once: the no-chain reference trusts it without validating anything.
public let leafKey: P256.Signing.PublicKey = {
    let header = try! JSONDecoder().decode(ChainHeader.self, from: base64URLDecode(signedTransaction.split(separator: ".")[0])!)
    let leaf = try! Certificate(derEncoded: Array(Data(base64Encoded: header.x5c[0])!))
    return P256.Signing.PublicKey(leaf.publicKey)!
}()

/// One ES256 JWS parse and verify with no chain: split, decode the header JSON (its alg: with no
/// chain, x5c is not read), decode the signature, verify it over `header.payload` with a known key,
/// decode the payload into its type. What any JWS library does before certificates enter the
/// picture: the floor.
public func verifyWithoutChain<Payload: Decodable>(_ jws: String, as type: Payload.Type) -> Payload? {
    let parts = jws.utf8.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map { Substring($0) }
    guard parts.count == 3, let headerData = base64URLDecode(parts[0]),
        let header = try? JSONDecoder().decode(Header.self, from: headerData), header.alg == "ES256",
        let signatureData = base64URLDecode(parts[2]),
        let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureData),
        let payloadData = base64URLDecode(parts[1])
    else { return nil }
    let input = Data(jws.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
    guard leafKey.isValidSignature(signature, for: input) else { return nil }
    return try? AppStoreJSON.decoder().decode(type, from: payloadData)
}

/// One raw P-256 signature verification over a precomputed digest.
public let rawDigest = SHA256.hash(data: Data(signedTransaction.split(separator: ".").prefix(2).joined(separator: ".").utf8))
public let rawSignature = try! P256.Signing.ECDSASignature(rawRepresentation: base64URLDecode(signedTransaction.split(separator: ".")[2])!)

