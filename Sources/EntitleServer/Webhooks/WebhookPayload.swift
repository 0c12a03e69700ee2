import Crypto
import EntitleWire
import Foundation

/// A webhook's body and its signature.
///
/// `Entitle-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, one `v1` per active
/// secret (two during a rotation): receivers recompute it with their secret, compare in constant time,
/// and refuse a `t` too far from their clock (docs/webhooks.md).
public enum WebhookPayload {
    public static let signatureHeader = "Entitle-Signature"

    /// The JSON body: keys sorted, dates in ISO 8601.
    public static func encode(_ event: WebhookEvent) throws -> String {
        let encoder = WireJSON.encoder
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(event), as: UTF8.self)
    }

    /// The signature header's value for `body` sent at `timestamp` (Unix seconds).
    public static func signature(body: String, timestamp: Int64, secrets: [String]) -> String {
        let signed = Data("\(timestamp).\(body)".utf8)
        let macs = secrets.map { secret in
            HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8))).map { String(format: "%02x", $0) }.joined()
        }
        return (["t=\(timestamp)"] + macs.map { "v1=\($0)" }).joined(separator: ",")
    }

    /// Whether `header` signs `body` with `secret` at a time within `tolerance` of `now`: the check a
    /// receiver makes, used by Entitle's own tests and tools.
    public static func verify(header: String, body: String, secret: String, now: Date, tolerance: TimeInterval = 300) -> Bool {
        var timestamp: Int64?
        var candidates: [String] = []
        for part in header.split(separator: ",") {
            let pair = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2 else { continue }
            if pair[0] == "t" { timestamp = Int64(pair[1]) } else if pair[0] == "v1" { candidates.append(pair[1]) }
        }
        guard let timestamp, abs(now.timeIntervalSince1970 - Double(timestamp)) <= tolerance else { return false }
        let expected = signature(body: body, timestamp: timestamp, secrets: [secret]).split(separator: ",")[1].dropFirst(3)
        return candidates.contains { candidate in
            candidate.utf8.count == expected.utf8.count && zip(candidate.utf8, expected.utf8).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
        }
    }
}
