import EntitleCore
import EntitleStorage
import Foundation
import LedgerPopulation
import Logging
import Synchronization

/// Fills a ledger with a seeded population of three apps (``SignedPopulation``): every App Store event
/// signed as Apple signs it, appended through the ledger's own append path in batches (one transaction
/// per batch of subscribers, each event idempotent, each subscriber's projection stored once), not
/// over HTTP. A second run on the same ledger appends nothing twice.
///
///     swift run --package-path Benchmarks -c release LoadPopulation [--subscribers N] [--ledger PATH|postgres://…]
///         [--seed S] [--workers W] [--batch B] [--catch-up]
///
/// N subscribers (10,000 by default; household members come on top), into LEDGER (a SQLite file,
/// created if missing, or a PostgreSQL URL; by default a SQLite file in a temporary folder, removed at
/// the end). W workers (4) each sign a batch of B subscribers (50) and append it, so signing and appends
/// overlap. Prints the rate, the time spent signing, and the bytes on disk per event beside the signed
/// bytes they hold. `--catch-up` then brings each app's analytics up to date and its webhooks' cursor to
/// the head (``PopulationCatchUp``), as a server running all along would have: what `ClusterSoak` needs.
@main
enum LoadPopulation {
    struct Options {
        var subscribers = 10_000
        var ledger: String?
        var seed: UInt64 = 42
        var workers = 4
        var batch = 50
        var catchUp = false
    }

    static func main() async throws {
        let options = try parse(Array(CommandLine.arguments.dropFirst()))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-population-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = options.ledger ?? folder.appendingPathComponent("entitle.sqlite").path
        var logger = Logger(label: "entitle.population")
        logger.logLevel = .error
        let database = try LedgerDatabase(url: ledger.hasPrefix("postgres") ? ledger : "sqlite:\(ledger)")
        let population = try SignedPopulation(seed: options.seed)
        say("loading \(options.subscribers) subscribers (seed \(options.seed)) into \(database) with \(options.workers) workers, batches of \(options.batch)")
        let (result, footprint) = try await load(population, options: options, database: database, logger: logger)
        say(String(format: "  %d subscribers (%d with household members), %d events (%d new), %d signed payloads",
                     options.subscribers, result.subscribers, result.events, result.appended, result.signed))
        say(String(format: "  took %.1f s: %.0f events/s; of the workers' time, signing %.1f s and appending %.1f s",
                     result.seconds, Double(result.events) / result.seconds, result.signing, result.appending))
        for line in FootprintReport.lines(footprint, signedBytes: result.signedBytes) { say(line) }
        if options.catchUp {
            let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent()
            let catalogs = try SignedPopulation.catalogs(from: root, into: folder)
            let seconds = try await LedgerConnection.with(database, logger: logger) { store in
                try await PopulationCatchUp.run(store, catalogs: catalogs)
            }
            say(String(format: "  analytics brought up to date and the webhooks' cursor moved to the head in %.1f s", seconds))
        }
    }

    static func load(
        _ population: SignedPopulation, options: Options, database: LedgerDatabase, logger: Logger
    ) async throws -> (PopulationLoader.Result, LedgerFootprint) {
        let last = Progress()
        return try await LedgerConnection.with(database, logger: logger) { root in
            let result = try await PopulationLoader.load(
                population, subscribers: 0..<options.subscribers, into: root, workers: options.workers, batch: options.batch
            ) { percent in
                let step = percent / 10 * 10
                if last.passed(step) { say("  \(step)%") }
            }
            return (result, try await LedgerFootprint.measure(root))
        }
    }

    /// The last tenth printed.
    final class Progress: Sendable {
        private let printed = Mutex(-1)
        func passed(_ step: Int) -> Bool {
            printed.withLock { previous in
                defer { previous = max(previous, step) }
                return step > previous
            }
        }
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--catch-up" {
                options.catchUp = true
                continue
            }
            guard let value = rest.popFirst() else { throw UsageError(message: "\(flag) needs a value") }
            switch flag {
            case "--subscribers": options.subscribers = try number(value, flag)
            case "--ledger": options.ledger = value
            case "--seed": options.seed = UInt64(try number(value, flag))
            case "--workers": options.workers = max(1, try number(value, flag))
            case "--batch": options.batch = max(1, try number(value, flag))
            default: throw UsageError(message: "unknown option \(flag)")
            }
        }
        return options
    }

    static func number(_ text: String, _ flag: String) throws -> Int {
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")), value >= 0 else { throw UsageError(message: "\(flag) takes a number") }
        return value
    }

    struct UsageError: Error, CustomStringConvertible {
        let message: String
        var description: String { message }
    }
}
