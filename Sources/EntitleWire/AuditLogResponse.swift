import Foundation

/// `GET /v1/audit-log`: operators' changes, newest first (docs/operations.md, "Audit log").
public struct AuditLogResponse: Codable, Hashable, Sendable {
    public var entries: [AuditEntryInfo]
    /// Pass as `before` for the next page; absent on the last.
    public var next: Int64?

    public init(entries: [AuditEntryInfo], next: Int64?) {
        self.entries = entries
        self.next = next
    }
}

/// One change an operator made.
public struct AuditEntryInfo: Codable, Hashable, Sendable {
    public var sequence: Int64
    public var at: Date
    /// Who: `key:<id> (<name>)` for a stored secret key, `secret:<fingerprint>` for a configured one,
    /// `account:<email>` for a person signed in to the dashboard, `dashboard:<fingerprint>` for a key's session there.
    public var actor: String
    /// The method and the route, `POST /v1/subscribers/{appUserID}/grants`.
    public var action: String
    public var subject: String?
    /// The body it was sent with, secrets redacted.
    public var request: String?
    public var status: Int
    public var requestID: String?
    /// What the change found: a subscriber's entitlements (JSON), an account's role; `nil` when the route says nothing.
    public var before: String?
    /// What the change left, in the same form.
    public var after: String?

    public init(
        sequence: Int64, at: Date, actor: String, action: String, subject: String?, request: String?, status: Int, requestID: String?,
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
