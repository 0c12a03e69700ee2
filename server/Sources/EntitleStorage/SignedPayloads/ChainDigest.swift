import Crypto
import NIOConcurrencyHelpers

/// A certificate chain's key in `certificate_chains`: the first 16 bytes of the SHA-256 of the exact
/// text of a JWS header's `x5c` array. Stored as lowercase hex.
struct ChainDigest: Hashable, Sendable, CustomStringConvertible {
    static let length = 16
    let bytes: [UInt8]

    init(bytes: [UInt8]) { self.bytes = bytes }

    init(of chain: [UInt8]) { self.bytes = Array(SHA256.hash(data: chain).prefix(Self.length)) }

    /// The digest of `chain`, from the few chains digested last when it is one of them (Apple signs with
    /// a handful, and a notification carries the same one three times): a comparison instead of a hash.
    static func recent(_ chain: [UInt8]) -> ChainDigest {
        if let known = lastDigested.withLockedValue({ $0.first { $0.chain == chain }?.digest }) { return known }
        let digest = ChainDigest(of: chain)
        lastDigested.withLockedValue { last in
            last.insert((chain, digest), at: 0)
            if last.count > 4 { last.removeLast() }
        }
        return digest
    }

    private static let lastDigested = NIOLockedValueBox<[(chain: [UInt8], digest: ChainDigest)]>([])

    /// The digest `hex` spells; `nil` unless it is 32 lowercase hex digits.
    init?(hex: String) {
        let digits = Array(hex.utf8)
        guard digits.count == Self.length * 2 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = Self.value(digits[index]), let low = Self.value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self.bytes = bytes
    }

    var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0x0F)]] }, as: UTF8.self)
    }

    var description: String { hex }

    private static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}
