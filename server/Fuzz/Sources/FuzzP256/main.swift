import Crypto
import Foundation
import FuzzSupport
import P256FixedKey

/// Holds `P256FixedKeyVerifier` to swift-crypto's verification (BoringSSL's `ECDSA_do_verify`): any
/// input on which the two verdicts differ traps, and libFuzzer saves it.
///
/// The first byte picks what the rest is. Even: one of four fixed keys, then r ‖ s (64 bytes) and a
/// digest of whatever is left (0–48 bytes). Odd: a digest of 32 bytes signed there and then by a fixed
/// key (or, one time in four, by the key the next 32 bytes name), with the rest of the input XORed
/// over r ‖ s ‖ digest: every valid signature, and everything a few bits away from one.
enum Target {
    static let keys: [P256.Signing.PrivateKey] = (1...4).map { index in
        var scalar = [UInt8](repeating: 0, count: 32)
        for position in scalar.indices { scalar[position] = UInt8(truncatingIfNeeded: (position + 1) * 37 * index + 11) }
        return try! P256.Signing.PrivateKey(rawRepresentation: scalar)
    }
    static let verifiers = keys.map { P256FixedKeyVerifier($0.publicKey)! }
}

/// Any bytes as a digest (both verifiers read the bytes given).
struct FuzzDigest: Digest {
    static let byteCount = 32
    let bytes: [UInt8]
    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R { try bytes.withUnsafeBytes(body) }
    func makeIterator() -> IndexingIterator<[UInt8]> { bytes.makeIterator() }
    var description: String { bytes.map { String(format: "%02x", $0) }.joined() }
}

func compare(_ key: P256.Signing.PublicKey, _ verifier: P256FixedKeyVerifier, signature: [UInt8], digest: [UInt8]) {
    let theirs = (try? P256.Signing.ECDSASignature(rawRepresentation: signature)).map {
        key.isValidSignature($0, for: FuzzDigest(bytes: digest))
    } ?? false
    let ours = verifier.isValidSignature(signature, for: FuzzDigest(bytes: digest))
    if ours != theirs {
        fatalError("verdicts differ: P256FixedKeyVerifier \(ours), swift-crypto \(theirs)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let pointer, count > 0 else { return 0 }
    let input = Array(UnsafeBufferPointer(start: pointer, count: count))
    let choice = Int(input[0])
    if choice & 1 == 0 {
        let index = (choice >> 1) % Target.keys.count
        guard input.count >= 65 else { return 0 }
        let signature = Array(input[1..<65])
        let digest = Array(input[65...].prefix(48))
        compare(Target.keys[index].publicKey, Target.verifiers[index], signature: signature, digest: digest)
        return 0
    }
    var rest = input.dropFirst()
    let key: P256.Signing.PrivateKey
    let verifier: P256FixedKeyVerifier
    if choice & 6 == 6 {
        guard rest.count >= 32, let named = try? P256.Signing.PrivateKey(rawRepresentation: Array(rest.prefix(32))) else { return 0 }
        rest = rest.dropFirst(32)
        key = named
        verifier = P256FixedKeyVerifier(named.publicKey)!
    } else {
        let index = (choice >> 1) % Target.keys.count
        key = Target.keys[index]
        verifier = Target.verifiers[index]
    }
    var digest = Array(SHA256.hash(data: Data(rest)))
    var signature = Array(try! key.signature(for: FuzzDigest(bytes: digest)).rawRepresentation)
    compare(key.publicKey, verifier, signature: signature, digest: digest)
    for (offset, byte) in rest.enumerated() where offset < 96 {
        if offset < 64 { signature[offset] ^= byte } else { digest[offset - 64] ^= byte }
    }
    compare(key.publicKey, verifier, signature: signature, digest: digest)
    return 0
}

runFuzzer(fuzz)
