import EntitleStorage

extension AnalyticsService {
    /// Events waiting for an owner, events analytics has not read, and whether an analytics recompute
    /// is under way: what `/metrics` reports as gauges when scraped.
    public func ledgerBacklog() async throws(ServiceError) -> (heldEvents: Int, analyticsPending: Int, recomputing: Bool) {
        do {
            return (try await events.heldEventCount(), try await analytics.pendingAnalytics(), try await analytics.recomputeUnderWay())
        } catch {
            throw ServiceError(error)
        }
    }

    /// Returns when the ledger answers reads (``LedgerStore/ping()``); throws its storage code when it
    /// doesn't: what `/ready` asks.
    public func checkLedger() async throws(ServiceError) {
        do {
            try await health.ping()
        } catch {
            throw ServiceError(error)
        }
    }
}
