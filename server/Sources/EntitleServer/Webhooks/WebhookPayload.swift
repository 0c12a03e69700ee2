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
            Hex.encode(HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8))))
        }
        return (["t=\(timestamp)"] + macs.map { "v1=\($0)" }).joined(separator: ",")
    }
}
