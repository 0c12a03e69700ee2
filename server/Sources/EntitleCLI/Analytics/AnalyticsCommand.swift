import ArgumentParser
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// `entitle analytics recompute`: brings the incremental aggregates up to date, then computes them
/// again from the whole ledger and says whether the two agree.
struct AnalyticsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "analytics", abstract: "Maintain the analytics aggregates.", subcommands: [Recompute.self])

    struct Recompute: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Recompute the analytics aggregates from the whole ledger.",
            discussion: """
                Refreshes the incremental aggregates first (finishing a recompute that was interrupted), then drops them and computes them from every subscriber's events. \
                Exits 0 when the recomputed aggregates equal the incremental ones, 1 when they differed (and were replaced). \
                Run it after changing the catalog (a product's period or price), since aggregates depend on it.
                """)

        @OptionGroup var options: AppLedgerOptions

        func run() async throws {
            if try await options.withApp(logger: Logger(label: "entitle.analytics"), { store, catalog in try await Self.recompute(store, catalog: catalog) }) {
                throw ExitCode.failure
            }
        }

        /// Refreshes, recomputes and compares; returns whether the aggregates differed.
        static func recompute(_ store: any LedgerStore, catalog: Catalog) async throws -> Bool {
            let contributor = AnalyticsContributor(catalog: catalog)
            let cells: @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells = { contributor.cells(appUserID: $0, events: $1) }
            let analytics = store.analyticsStore()
            // A recompute under way (one interrupted, say) is finished first, so the incremental
            // aggregates compared below count every subscriber.
            let finished = try await analytics.finishRecompute(batchSize: 1_000, cells: cells)
            let refreshed = try await analytics.refreshAnalytics(batchSize: 200, cells: cells)
            let incremental = try await analytics.analyticsCells(through: nil)
            let subscribers = try await analytics.recomputeAnalytics(batchSize: 1_000, cells: cells)
            let recomputed = try await analytics.analyticsCells(through: nil)
            let differing = Set(incremental.keys).union(recomputed.keys).filter { incremental[$0] != recomputed[$0] }
            print((finished > 0 ? "finished the recompute under way (\(finished) subscriber\(finished == 1 ? "" : "s")); " : "")
                + "refreshed \(refreshed) subscriber\(refreshed == 1 ? "" : "s"); recomputed \(recomputed.count) aggregate cells from \(subscribers) "
                + "subscriber\(subscribers == 1 ? "" : "s"); "
                + (differing.isEmpty ? "they equal the incremental aggregates" : "\(differing.count) cells differed from the incremental aggregates"))
            return !differing.isEmpty
        }
    }
}
