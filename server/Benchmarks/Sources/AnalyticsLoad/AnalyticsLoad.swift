import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import LedgerPopulation
import Logging
import PostgresNIO

/// The analytics overview over a large ledger: the incremental path (aggregates refreshed in the
/// background while events arrive, then a report read from them) against a full recompute from the
/// ledger, measured in the same run.
///
///     swift run --package-path Benchmarks -c release AnalyticsLoad [sqlite|postgres://…] [EVENTS] [ROUNDS]
///
/// ROUNDS (3 unless given) is how many times 1,000 new events are appended and the overview refreshed.
@main
enum AnalyticsLoad {
    static let product = Population.product
    static let start = Population.start

    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let target = arguments.first ?? "sqlite"
        let events = arguments.dropFirst().first.flatMap { Int($0) } ?? 1_000_000
        let rounds = arguments.dropFirst(2).first.flatMap { Int($0) } ?? 3
        let logger = {
            var logger = Logger(label: "entitle.analytics-load")
            logger.logLevel = .error
            return logger
        }()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-analytics-load-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let postgres = target.hasPrefix("postgres")
        let file = folder.appendingPathComponent("entitle.sqlite").path
        let database = postgres ? try LedgerDatabase(url: target) : .sqlite(path: file)
        let residency: @Sendable () -> String = {
            postgres ? "n/a" : PageResidency.fraction(of: file).map { String(format: "%.0f%%", $0 * 100) } ?? "unknown"
        }
        try await LedgerConnection.with(database, logger: logger) { store in
            try await run(store: store, engine: postgres ? "PostgreSQL" : "SQLite", events: events, rounds: rounds, residency: residency)
        }
    }

    /// `residency` tells how much of the ledger's file is in memory (SQLite only), printed after
    /// ingestion and before each round's refresh: a refresh reads from the disk what isn't.
    static func run(
        store: any LedgerStore, engine: String, events target: Int, rounds: Int, residency: @Sendable () -> String
    ) async throws {
        let catalog = try CatalogLoader().load(directory: Fixtures.examples.appendingPathComponent("ScreenTimeRewards"))
        let contributor = AnalyticsContributor(catalog: catalog)
        let cells: @Sendable (AppUserID, [LedgerEvent]) -> AnalyticsCells = { contributor.cells(appUserID: $0, events: $1) }
        let end = start.addingTimeInterval(365 * 86_400)
        let lastDay = AnalyticsCalendar.day(of: end)
        let firstDay = AnalyticsCalendar.firstDayOfMonth(containing: lastDay - 334)

        // The population, generated up front so generation isn't timed.
        let people = Population.people(events: target)
        let total = people.reduce(0) { $0 + $1.count }
        print("\(engine): \(total) events for \(people.count) subscribers over 2025")

        // Ingestion with the analytics refreshed every 5 s in the background, as the server does.
        let ingestion = ContinuousClock.now
        let refreshes = RefreshLog()
        try await withThrowingTaskGroup(of: Void.self) { group in
            let workers = 8
            let batches = (0..<workers).map { worker in stride(from: worker, to: people.count, by: workers).map { people[$0] } }
            for batch in batches {
                group.addTask {
                    for person in batch { for event in person { _ = try await store.append(event) } }
                }
            }
            let refresher = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(5))
                    let started = ContinuousClock.now
                    let count = (try? await store.analyticsStore().refreshAnalytics(batchSize: 500, cells: cells)) ?? 0
                    await refreshes.add(count, ContinuousClock.now - started)
                }
            }
            try await group.waitForAll()
            refresher.cancel()
            await refresher.value
        }
        let ingested = ContinuousClock.now - ingestion
        let catchUp = try await measure { _ = try await store.analyticsStore().refreshAnalytics(batchSize: 500, cells: cells) }
        let (refreshed, refreshTime) = await refreshes.totals
        print(String(
            format: "ingested in %.0f s (%.0f events/s) with %d background refreshes of %d subscriber updates taking %.1f s; catch-up after the last event %.2f s",
            seconds(ingested), Double(total) / seconds(ingested), await refreshes.count, refreshed, seconds(refreshTime), seconds(catchUp)))

        print("ledger file in memory after ingestion: \(residency())")

        // The overview from the aggregates (nothing pending), repeated.
        var incremental: [Duration] = []
        var report: AnalyticsReport?
        for _ in 0..<15 {
            incremental.append(try await measure {
                _ = try await store.analyticsStore().refreshAnalytics(batchSize: 500, cells: cells)
                report = AnalyticsReport(cells: try await store.analyticsStore().analyticsCells(through: lastDay), catalog: catalog, from: firstDay, to: lastDay)
            })
        }
        let aggregateRows = try await store.analyticsStore().analyticsCells(through: nil).count

        // 1,000 new events (one renewal each for 1,000 subscribers), then the overview.
        var afterNew: [Duration] = []
        var residencies: [String] = []
        for round in 0..<rounds {
            for index in 0..<1_000 {
                let user = (round * 1_000 + index) * 7 % people.count
                let original = "A\(user)"
                let purchase = end.addingTimeInterval(Double(round * 1_000 + index))
                let transaction = AppleFacts(bundleID: "com.screentimerewards").subscription(
                    product[user % 2], original: original, id: "\(original)-extra-\(round)", purchase: purchase,
                    expires: ISODuration(months: 1).added(to: purchase), price: user % 2 == 0 ? 7_990 : 12_990)
                _ = try await store.append(LedgerEvents.notification(
                    900_000_000 + round * 1_000 + index, appUserID: "user-\(user)", type: .didRenew, transaction: transaction))
            }
            residencies.append(residency())
            afterNew.append(try await measure {
                _ = try await store.analyticsStore().refreshAnalytics(batchSize: 500, cells: cells)
                report = AnalyticsReport(cells: try await store.analyticsStore().analyticsCells(through: lastDay), catalog: catalog, from: firstDay, to: lastDay)
            })
        }

        print("ledger file in memory before each round's refresh: \(residencies.joined(separator: ", "))")

        // The reference: a full recompute from the ledger, then the same overview.
        var full: [Duration] = []
        for _ in 0..<2 {
            full.append(try await measure {
                _ = try await store.analyticsStore().recomputeAnalytics(batchSize: 1_000, cells: cells)
                report = AnalyticsReport(cells: try await store.analyticsStore().analyticsCells(through: lastDay), catalog: catalog, from: firstDay, to: lastDay)
            })
        }
        let fullMedian = median(full)
        print("aggregate cells: \(aggregateRows); report: \(report?.months.count ?? 0) months, \(report?.daily.count ?? 0) days, MRR \(report?.current.mrr ?? [:])")
        print("| path | median | runs | vs full recompute |")
        print("|---|---:|---:|---:|")
        for (name, runs) in [("overview from the aggregates (nothing pending)", incremental),
                             ("1,000 new events: refresh + overview", afterNew),
                             ("full recompute from the ledger + overview", full)] {
            print(String(format: "| %@ | %.1f ms | %d | %.4f× |", name, seconds(median(runs)) * 1000, runs.count, seconds(median(runs)) / seconds(fullMedian)))
        }
    }

    static func measure(_ body: () async throws -> Void) async throws -> Duration {
        let started = ContinuousClock.now
        try await body()
        return ContinuousClock.now - started
    }

    static func median(_ values: [Duration]) -> Duration { values.sorted()[values.count / 2] }
    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    actor RefreshLog {
        private(set) var count = 0
        private var subscribers = 0
        private var time = Duration.zero
        func add(_ refreshed: Int, _ took: Duration) {
            count += 1
            subscribers += refreshed
            time += took
        }
        var totals: (Int, Duration) { (subscribers, time) }
    }
}
