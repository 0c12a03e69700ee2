import ArgumentParser
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// The options of a command on one app's part of an existing ledger: the database, the app's catalog,
/// and the app (by default the catalog's, else the database's only one).
struct AppLedgerOptions: ParsableArguments {
    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
    var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"

    @Option(help: "The app folder with entitlements.json and its .storekit file.", completion: .directory)
    var catalog: String?

    @Option(help: "The app (bundle ID); by default the catalog's, else the database's only app.")
    var app: String?

    /// Runs `body` with the app's store and its catalog.
    func withApp<T: Sendable>(
        logger: Logger, _ body: @escaping @Sendable (_ store: any LedgerStore, _ catalog: Catalog) async throws -> T
    ) async throws -> T {
        let loaded = try CommandInputs.catalog(path: catalog ?? ProcessInfo.processInfo.environment["ENTITLE_CATALOG"])
        let named = app.map { BundleID($0) } ?? loaded.bundleID
        return try await CommandInputs.withExistingLedger(database, logger: logger) { store in
            let apps = try await store.appIDs()
            guard let app = named ?? (apps.count <= 1 ? apps.first ?? BundleID("") : nil) else {
                throw ValidationError("the database holds several apps (\(apps.map(\.rawValue).joined(separator: ", "))): name one with --app")
            }
            return try await body(store.forApp(app), loaded)
        }
    }
}
