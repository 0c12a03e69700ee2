import Foundation

/// One change an operator made (docs/operations.md, "Audit log"): who (the key's name), what (the route and
/// what it was asked with, secrets redacted), when, how it ended, and the request's ID. Written once, never
/// changed or removed.
public struct AuditEntry: Hashable, Sendable {
    /// Assigned by the store, in the order entries were written.
    public var sequence: Int64
    public var at: Date
    /// Who: `key:<id> (<name>)` for a stored key, `secret:<fingerprint>` for a configured one,
    /// `account:<email>` for a person signed in to the dashboard, `dashboard:<fingerprint>` for a key's session there.
    public var actor: String
    /// What: the method and the route (`POST /v1/subscribers/{appUserID}/grants`).
    public var action: String
    /// The subscriber (or other resource) the route names, if any.
    public var subject: String?
    /// The request's JSON body as sent, secrets redacted, at most ``largestRequest`` bytes.
    public var request: String?
    /// The response's status.
    public var status: Int
    public var requestID: String?
    /// What the change found and left (a subscriber's entitlements, an account's role), when the route says.
    public var before: String?
    public var after: String?

    /// `text` as it appears inside a kept body's JSON strings (quotes and backslashes escaped).
    public static func jsonText(of text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    /// The most of a request's body an entry keeps.
    public static let largestRequest = 8 * 1024

    public init(
        sequence: Int64 = 0, at: Date, actor: String, action: String, subject: String?, request: String?, status: Int, requestID: String?,
        before: String? = nil, after: String? = nil
    ) {
        self.before = before
        self.after = after
        self.sequence = sequence
        self.at = at
        self.actor = actor
        self.action = action
        self.subject = subject
        self.request = request
        self.status = status
        self.requestID = requestID
    }
}
