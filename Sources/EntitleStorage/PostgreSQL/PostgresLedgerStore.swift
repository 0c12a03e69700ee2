import EntitleCore
import Foundation
import Logging
import PostgresNIO

/// The production ledger on PostgreSQL. Several server instances may share one database.
public enum PostgresLedgerStore {
    /// A ledger on `client`, migrated. The caller runs the client (`client.run()`, a service) for as
    /// long as the store is used.
    public static func open(client: PostgresClient, logger: Logger = Logger(label: "entitle.storage.postgres")) async throws(StorageError) -> any LedgerStore {
        let store = self.store(client: client, logger: logger)
        try await store.migrate()
        return store
    }

    /// A ledger on `client`, not migrated yet.
    static func store(client: PostgresClient, logger: Logger, observer: StorageObserver = .none) -> any LedgerStore {
        SQLLedgerStore(engine: PostgresEngine(client: client, logger: logger, observer: observer))
    }

    /// The client configuration for a `postgres://user:password@host:port/database?sslmode=disable` URL;
    /// `pool_size=N` (1 to 1000, default 20) sets how many connections the instance's pool may open.
    public static func configuration(url text: String) throws(StorageError) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: text), components.scheme == "postgres" || components.scheme == "postgresql",
            let host = components.host, !host.isEmpty
        else {
            throw StorageError(.invalidURL, "\(text) is not a postgres://user:password@host:port/database URL")
        }
        let sslMode = components.queryItems?.first { $0.name == "sslmode" }?.value ?? "disable"
        guard sslMode == "disable" else {
            throw StorageError(.invalidURL, "sslmode=\(sslMode) is not supported yet; use sslmode=disable on a private network")
        }
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres", password: components.password,
            database: database.isEmpty ? nil : database, tls: .disable)
        if let value = components.queryItems?.first(where: { $0.name == "pool_size" })?.value {
            guard let size = Int(value), (1...1000).contains(size) else {
                throw StorageError(.invalidURL, "pool_size=\(value) is not a number of connections from 1 to 1000")
            }
            configuration.options.maximumConnections = size
            configuration.options.minimumConnections = min(configuration.options.minimumConnections, size)
        }
        return configuration
    }
}
