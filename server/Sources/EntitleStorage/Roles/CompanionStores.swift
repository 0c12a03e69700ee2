import Foundation

/// The other stores kept in the ledger's database, each confined as the ledger is (to its app, or
/// server-wide where said).
public protocol CompanionStores: Sendable {
    /// The analytics aggregates, a consumer of this ledger.
    func analyticsStore() -> any AnalyticsStore

    /// The events this app's background consumers set aside.
    func setAsideStore() -> any SetAsideStore

    /// The app's webhooks: endpoints, deliveries, the schedule.
    func webhookStore() -> any WebhookStore

    /// The API keys (of every app).
    func keyStore() -> any KeyStore

    /// The app's admin jobs (reconciliation passes a request started).
    func adminJobStore() -> any AdminJobStore

    /// The app's customer imports.
    func importJobStore() -> any ImportJobStore

    /// The app's audit log of operators' changes (append-only).
    func auditLog() -> any AuditLog

    /// The dashboard's sign-ins (server-wide).
    func dashboardSessionStore() -> any DashboardSessionStore

    /// The dashboard's people: accounts and invitations (server-wide).
    func dashboardAccountStore() -> any DashboardAccountStore

    /// The dashboard accounts' passkeys and WebAuthn challenges (server-wide).
    func passkeyStore() -> any PasskeyStore

    /// The trace contexts the app's events were appended under, while tracing is on.
    func traceContextStore() -> any TraceContextStore
}
