import EntitleCore
import Foundation

/// The stores kept beside a ledger in a ``MemoryDatabase``.
struct MemoryCompanionStores: CompanionStores {
    let database: MemoryDatabase
    let app: BundleID

    func analyticsStore() -> any AnalyticsStore { MemoryAnalyticsStore(database: database, app: app) }
    func setAsideStore() -> any SetAsideStore { MemorySetAsideStore(database: database, app: app) }
    func webhookStore() -> any WebhookStore { MemoryWebhookStore(database: database, app: app) }
    func keyStore() -> any KeyStore { MemoryKeyStore(database: database) }
    func adminJobStore() -> any AdminJobStore { MemoryAdminJobStore(database: database, app: app) }
    func importJobStore() -> any ImportJobStore { MemoryImportJobStore(database: database, app: app) }
    func auditLog() -> any AuditLog { MemoryAuditLog(database: database, app: app) }
    func dashboardSessionStore() -> any DashboardSessionStore { MemoryDashboardSessionStore(database: database) }
    func dashboardAccountStore() -> any DashboardAccountStore { MemoryDashboardAccountStore(database: database) }
    func passkeyStore() -> any PasskeyStore { MemoryPasskeyStore(database: database) }
    func traceContextStore() -> any TraceContextStore { MemoryTraceContextStore(database: database, app: app) }
}
