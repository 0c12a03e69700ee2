import EntitleServer
import Foundation
import Logging

extension AppLedgerOptions {
    /// Runs `body` with the app's experiment service over the existing ledger.
    func withExperiments<T: Sendable>(_ body: @escaping @Sendable (ExperimentService) async throws -> T) async throws -> T {
        let logger = Logger(label: "entitle.experiments")
        return try await withApp(logger: logger) { store, catalog in
            try await body(AppServices(store: store, catalog: catalog, verifiers: [], now: { Date() }, logger: logger).experiments)
        }
    }
}
