import EntitleCore
/// The stores kept beside the ledger in its database, over the same engine.
struct SQLCompanionStores: CompanionStores {
    let engine: any SQLEngine
    let app: BundleID

    func analyticsStore() -> any AnalyticsStore {
        SQLAnalyticsStore(engine: engine, app: app)
    }

    func setAsideStore() -> any SetAsideStore {
        SQLSetAsideStore(engine: engine, app: app)
    }

    func webhookStore() -> any WebhookStore {
        SQLWebhookStore(engine: engine, app: app)
    }

    func keyStore() -> any KeyStore {
        SQLKeyStore(engine: engine)
    }

    func adminJobStore() -> any AdminJobStore {
        SQLAdminJobStore(engine: engine, app: app)
    }

    func auditLog() -> any AuditLog {
        SQLAuditLog(engine: engine, app: app)
    }

    func importJobStore() -> any ImportJobStore {
        SQLImportJobStore(engine: engine, app: app)
    }

    func dashboardSessionStore() -> any DashboardSessionStore {
        SQLDashboardSessionStore(engine: engine)
    }

    func dashboardAccountStore() -> any DashboardAccountStore {
        SQLDashboardAccountStore(engine: engine)
    }

    func passkeyStore() -> any PasskeyStore {
        SQLPasskeyStore(engine: engine)
    }

    func traceContextStore() -> any TraceContextStore {
        SQLTraceContextStore(engine: engine, app: app)
    }
}
