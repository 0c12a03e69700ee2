import EntitleAnalytics
import EntitleCore
import EntitleStorage
import Foundation

/// What a server running all along would have done with a loaded population: each app's analytics
/// brought up to date, and its webhooks' cursor moved to the ledger's head (as if each event loaded had
/// come through the server and been published then), so the first server started on the ledger doesn't
/// spend its run on them.
public enum PopulationCatchUp {
    /// Catches up every app of ``SignedPopulation`` in `store`, with its catalog in `catalogs` (in the
    /// order of ``SignedPopulation/apps``); the seconds it took.
    public static func run(_ store: any LedgerStore, catalogs: [URL]) async throws -> Double {
        let clock = ContinuousClock()
        let started = clock.now
        for (index, app) in SignedPopulation.apps.enumerated() {
            let contributor = AnalyticsContributor(catalog: try CatalogLoader().load(directory: catalogs[index]))
            let cells: @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells = { contributor.cells(appUserID: $0, events: $1) }
            let aggregates = store.forApp(BundleID(app.bundleID)).analyticsStore()
            if try await aggregates.startRecompute(unlessDefinitionsAre: AnalyticsContributor.definitionsVersion) {
                while !(try await aggregates.recomputeBatch(batchSize: 1_000, cells: cells).finished) {}
            }
            while try await aggregates.refreshAnalytics(batchSize: 1_000, cells: cells) > 0 {}
            let scoped = store.forApp(BundleID(app.bundleID))
            // A consumer new each time starts at the head (a known one at its own position).
            let head = try await scoped.consumerEvents(LedgerConsumer(rawValue: "population-head-\(UUID().uuidString)"), limit: 1, since: .distantFuture)
                .position
            let webhooks = try await scoped.consumerEvents("webhooks", limit: 1, since: .distantFuture).position
            _ = try await scoped.advanceConsumer("webhooks", from: webhooks, to: head)
        }
        let elapsed = clock.now - started
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
