import Crypto
import Foundation

/// Dashboard sign-in: an operator's secret key is exchanged for a cookie holding an expiry and an
/// HMAC over it. Nothing is stored. The MAC key is derived from the public-key secret when one is
/// configured (so every instance sharing it accepts the same cookies), else drawn at random when the
/// server starts (signing in again after a restart).
struct DashboardSessions: Sendable {
    static let cookieName = "entitle_session"
    static let lifetime: TimeInterval = 12 * 3600
    private let key: SymmetricKey

    init(keys: APIKeys) {
        key = keys.dashboardSessionKey
    }

    /// A new session cookie value, valid until `now` + ``lifetime``.
    func issue(now: Date) -> String {
        let expiry = Int64((now.timeIntervalSince1970 + Self.lifetime).rounded(.down))
        let nonce = Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) }).base64URL
        let body = "v1.\(expiry).\(nonce)"
        return body + "." + Data(HMAC<SHA256>.authenticationCode(for: Data(body.utf8), using: key)).base64URL
    }

    /// Whether `value` is a cookie this server issued and it hasn't expired at `now`.
    func isValid(_ value: String, now: Date) -> Bool {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "v1", let expiry = Int64(parts[1]), let mac = Data(base64URL: String(parts[3])) else { return false }
        let body = parts[0...2].joined(separator: ".")
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: Data(body.utf8), using: key) else { return false }
        return now.timeIntervalSince1970 < Double(expiry)
    }
}
