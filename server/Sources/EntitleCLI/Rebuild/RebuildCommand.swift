import ArgumentParser
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// `entitle rebuild`: recomputes every subscriber's projection from the ledger (of one app, or of every
/// app in the database), and says whether each equals the live one it replaces.
struct RebuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rebuild",
        abstract: "Recompute every projection from the ledger.",
        discussion: "Exits 0 when every rebuilt projection equals the live one, 1 when any differed (and was replaced).")

    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
    var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"

    @Option(help: "The app (bundle ID) to rebuild; every app in the database by default.")
    var app: String?

    func run() async throws {
        let logger = Logger(label: "entitle.rebuild")
        let app = app
        let differed = try await CommandInputs.withExistingLedger(database, logger: logger) { store in
            var differed = 0
            let apps: [BundleID]
            if let app { apps = [BundleID(app)] } else { apps = try await store.appIDs() }
            for id in apps {
                if !id.rawValue.isEmpty || app != nil { print("\(id.rawValue.isEmpty ? "(rows no app adopted yet)" : id.rawValue):") }
                differed += try await Self.rebuild(store.forApp(id))
            }
            return differed
        }
        if differed > 0 { throw ExitCode.failure }
    }

    /// Rebuilds and compares; returns how many projections differed from the live ones.
    static func rebuild(_ store: any LedgerStore) async throws -> Int {
        let clock = ContinuousClock()
        let started = clock.now
        let report = try await store.rebuildProjections(keepingDifferences: 10)
        let took = clock.now - started
        let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
        print("rebuilt \(report.rebuilt) subscriber projection\(report.rebuilt == 1 ? "" : "s") from \(report.events) events in "
            + String(format: "%.1f s (%.0f events/s); ", seconds, Double(report.events) / max(seconds, 0.001))
            + (report.differed == 0
                ? "all equal the live ones"
                : "\(report.differed) differed: \(report.firstDiffering.map(\.rawValue).joined(separator: ", "))"))
        return report.differed
    }
}
