import ArgumentParser
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import Logging

/// What every `entitle experiments` subcommand takes: the database, the app's catalog (experiments
/// name its offerings) and the app.
struct ExperimentOptions: ParsableArguments {
    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
    var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"

    @Option(help: "The app folder with entitlements.json and its .storekit file.", completion: .directory)
    var catalog: String?

    @Option(help: "The app (bundle ID); by default the catalog's, else the database's only app.")
    var app: String?

    /// Runs `body` with the app's experiment service over the existing ledger.
    func withExperiments<T: Sendable>(_ body: @escaping @Sendable (ExperimentService) async throws -> T) async throws -> T {
        let logger = Logger(label: "entitle.experiments")
        let loaded = try CommandInputs.catalog(path: catalog ?? ProcessInfo.processInfo.environment["ENTITLE_CATALOG"])
        let named = app.map { BundleID($0) } ?? loaded.bundleID
        return try await CommandInputs.withExistingLedger(database, logger: logger) { store in
            let apps = try await store.appIDs()
            guard let app = named ?? (apps.count <= 1 ? apps.first ?? BundleID("") : nil) else {
                throw ValidationError("the database holds several apps (\(apps.map(\.rawValue).joined(separator: ", "))): name one with --app")
            }
            let services = AppServices(store: store.forApp(app), catalog: loaded, verifiers: [], now: { Date() }, logger: logger)
            return try await body(services.experiments)
        }
    }
}
