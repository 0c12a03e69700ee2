import AppStoreModels
import AsyncHTTPClient
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import LedgerPopulation
import Logging
import NIOCore

/// How every cost grows with the ledger: the population (``SignedPopulation``) loaded to each size in
/// turn, and at each size `entitle rebuild`, the ledger's bytes, then `entitle serve` (the release
/// binary, its own process) measured over HTTP on loopback: subscriber reads at a fixed rate over
/// uniformly random subscribers (the first pass after the server starts, cold; the same ones again,
/// warm), ingestion of signed renewals with the webhook publisher's lag, the analytics API and every
/// dashboard page, one reconciliation pass of the first app against Apple's stand-in (not paced: the
/// cost is Entitle's), and the server's resident memory. Each figure is printed beside the smallest size's,
/// measured in the same run.
///
///     swift build -c release --product entitle
///     swift run --package-path Benchmarks -c release GrowthCurves [--sizes 10000,100000,1000000] [--ledger PATH|postgres://…]
///         [--measure-only] [--no-reconciliation]
///
/// LEDGER: a SQLite file (by default one in a temporary folder, removed at the end) or a PostgreSQL
/// database, which should be empty (or hold this population from an earlier run: loading is
/// idempotent). `--measure-only` measures the server alone on a LEDGER that already holds the population
/// to the one size given (a profile of its figures, loading nothing); `--no-reconciliation` leaves out
/// the reconciliation pass. `ENTITLE_BINARY` names the server binary (default `.build/release/entitle`).
@main
enum GrowthCurves {
    static let port = 18_125
    static let key = "sk_growth_test_key_0001"
    static let readRate = 2_000
    static let readSeconds = 5
    static let notifications = 3_000
    static let senders = 16

    static func main() async throws {
        let arguments = PopulationArguments(defaultSizes: [10_000, 100_000, 1_000_000], flags: ["--measure-only", "--no-reconciliation"])
        let (sizes, ledger) = (arguments.sizes, arguments.ledger)
        let measureOnly = arguments.flags.contains("--measure-only")
        let reconciling = !arguments.flags.contains("--no-reconciliation")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-growth-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = ledger.map { $0.hasPrefix("postgres") ? $0 : "sqlite:\($0)" } ?? "sqlite:" + folder.appendingPathComponent("entitle.sqlite").path
        let database = try LedgerDatabase(url: url)
        let binary = ProcessInfo.processInfo.environment["ENTITLE_BINARY"] ?? root.appendingPathComponent(".build/release/entitle").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            say("no server binary at \(binary): run `swift build -c release --product entitle` first, or set ENTITLE_BINARY")
            exit(2)
        }
        var logger = Logger(label: "entitle.growth")
        logger.logLevel = .error
        let population = try SignedPopulation(seed: 42)
        let server = try ServerSetup(folder: folder, root: root, binary: binary, database: url)
        say("growth of \(database) over \(sizes.map(String.init).joined(separator: ", ")) subscribers")

        var rows: [(size: Int, figures: [String: Double])] = []
        if measureOnly {
            guard let size = sizes.first, sizes.count == 1, ledger != nil else {
                say("--measure-only needs --ledger and one size: that of the population the ledger holds")
                exit(2)
            }
            say("\n== \(size) subscribers, measured only")
            rows.append((size, try await server.measure(size: size, population: population, reconciling: reconciling)))
            Table.print(rows)
            return
        }
        var loaded = 0
        var signedBytes = 0
        for size in sizes {
            var figures: [String: Double] = [:]
            say("\n== \(size) subscribers")
            let range = loaded..<size
            let load = try await LedgerConnection.with(database, logger: logger) { store in
                try await PopulationLoader.load(population, subscribers: range, into: store)
            }
            loaded = size
            signedBytes += load.signedBytes
            say(String(format: "  loaded %d events in %.1f s (%.0f/s)", load.events, load.seconds, Double(load.events) / load.seconds))
            figures["load events/s"] = Double(load.events) / load.seconds

            // The analytics brought up to date and the webhooks' cursor at the head, as a server running
            // all along would have kept them.
            let catalogs = server.catalogs
            let analytics = try await LedgerConnection.with(database, logger: logger) { store in
                try await PopulationCatchUp.run(store, catalogs: catalogs)
            }
            figures["analytics catch-up s"] = analytics
            say(String(format: "  analytics brought up to date in %.1f s", analytics))

            let rebuild = try Run.time(binary, ["rebuild", "--database", url])
            let rebuilt = try await LedgerConnection.with(database, logger: logger) { store in
                try await LedgerFootprint.measure(store)
            }
            figures["rebuild s"] = rebuild
            figures["rebuild events/s"] = Double(rebuilt.events) / rebuild
            figures["events"] = Double(rebuilt.events)
            figures["bytes/event"] = Double(rebuilt.total) / Double(max(1, rebuilt.events))
            figures["bytes/subscriber"] = Double(rebuilt.total) / Double(size)
            figures["signed payload bytes/event"] = Double(rebuilt.storedSignedPayloads) / Double(max(1, rebuilt.events))
            figures["event JSON bytes/event"] = Double(rebuilt.eventJSON) / Double(max(1, rebuilt.events))
            figures["projection bytes/subscriber"] = Double(rebuilt.tables["subscribers"] ?? 0) / Double(size)
            figures["index bytes/event"] = Double(rebuilt.indexTotal) / Double(max(1, rebuilt.events))
            figures["disk / signed payloads received"] = Double(rebuilt.total) / Double(max(1, signedBytes))
            say(String(format: "  rebuild %.1f s (%.0f events/s); %.0f bytes per event on disk", rebuild, figures["rebuild events/s"] ?? 0,
                         figures["bytes/event"] ?? 0))

            let measured = try await server.measure(size: size, population: population, reconciling: reconciling)
            figures.merge(measured) { $1 }
            rows.append((size, figures))
        }
        Table.print(rows)
    }
}
