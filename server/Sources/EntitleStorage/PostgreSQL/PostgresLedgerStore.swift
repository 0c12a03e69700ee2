import EntitleCore
import Foundation
import Logging
import PostgresNIO

/// The production ledger on PostgreSQL. Several server instances may share one database.
public enum PostgresLedgerStore {
    /// A ledger on `client`, migrated. The caller runs the client (`client.run()`, a service) for as
    /// long as the store is used. Once PostgreSQL looks away (a lease waited for longer than a second),
    /// a statement waits at most `patience` for one of the pool's connections (the client's
    /// `connectTimeout` is a good choice), then fails `storage.unavailable`.
    public static func open(
        client: PostgresClient, patience: Duration = .seconds(10), logger: Logger = Logger(label: "entitle.storage.postgres")
    ) async throws(StorageError) -> any LedgerStore {
        let store = self.store(client: client, patience: patience, logger: logger)
        try await store.migrate()
        return store
    }

    /// A ledger on `client`, not migrated yet.
    static func store(
        client: PostgresClient, patience: Duration = .seconds(10), lease: PostgresLoopLease? = nil, logger: Logger, observer: StorageObserver = .none
    ) -> any LedgerStore {
        SQLLedgerStore(engine: PostgresEngine(pool: PostgresPool(client: client, patience: patience), lease: lease, logger: logger, observer: observer), writePath: RoutineWritePath())
    }

    /// The client configuration for a `postgres://user:password@host:port/database?sslmode=disable` URL;
    /// `pool_size=N` (1 to 1000, default 20) sets how many connections the instance may open (shared
    /// between the pool and the event loops' reads, ``LedgerConnection/postgresShares(total:loops:)``);
    /// `sslmode` and `sslrootcert` set TLS as libpq does (``PostgresTLS``); `connect_timeout=S` (1 to
    /// 3600 s, default 10) bounds each connection attempt; `application_name` (default `entitle`) names
    /// the connections in `pg_stat_activity`; any other parameter is refused.
    /// `host=/directory` (libpq's form, e.g. `postgres://entitle@/ledger?host=/var/run/postgresql`)
    /// connects through the Unix-domain socket PostgreSQL keeps in that directory for the port
    /// (`.s.PGSQL.5432`), a server on the same machine; any other `host=` names the host instead of the
    /// URL's, and `port=` the port.
    public static func configuration(url text: String) throws(StorageError) -> PostgresClient.Configuration {
        try settings(url: text).configuration
    }

    /// The client configuration for a URL and the TLS its connections use (``PostgresTLS``: `sslmode`,
    /// `sslrootcert`), kept apart as well for connections made outside the pool.
    static func settings(url text: String) throws(StorageError) -> (configuration: PostgresClient.Configuration, tls: PostgresTLS) {
        guard let components = URLComponents(string: text), components.scheme == "postgres" || components.scheme == "postgresql" else {
            throw StorageError(.invalidURL, "\(redacted(text)) is not a postgres://user:password@host:port/database URL")
        }
        let items = components.queryItems ?? []
        let hostItem = items.first { $0.name == "host" }?.value
        guard let host = hostItem ?? components.host, !host.isEmpty else {
            throw StorageError(.invalidURL, "\(redacted(text)) is not a postgres://user:password@host:port/database URL")
        }
        for item in items where !Self.parameters.contains(item.name) {
            throw StorageError(.invalidURL, "\(item.name)= is not a parameter Entitle reads (\(Self.parameters.sorted().joined(separator: ", ")))")
        }
        var tls = try PostgresTLS(queryItems: items)
        let path = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let database = path.isEmpty ? nil : path
        var port = components.port ?? 5432
        guard (1...65_535).contains(port) else {
            throw StorageError(.invalidURL, "port \(port) is not a port number from 1 to 65535")
        }
        if let value = items.first(where: { $0.name == "port" })?.value {
            guard let number = Int(value), (1...65_535).contains(number) else {
                throw StorageError(.invalidURL, "port=\(value) is not a port number from 1 to 65535")
            }
            port = number
        }
        let (username, password) = (components.user ?? "postgres", components.password)
        var configuration: PostgresClient.Configuration
        if host.hasPrefix("/") {
            let directory = host.hasSuffix("/") ? String(host.dropLast()) : host
            configuration = PostgresClient.Configuration(
                unixSocketPath: "\(directory)/.s.PGSQL.\(port)", username: username, password: password, database: database)
            tls = .disable
        } else {
            configuration = PostgresClient.Configuration(host: host, port: port, username: username, password: password, database: database, tls: tls.client)
        }
        if let value = items.first(where: { $0.name == "pool_size" })?.value {
            guard let size = Int(value), (1...1000).contains(size) else {
                throw StorageError(.invalidURL, "pool_size=\(value) is not a number of connections from 1 to 1000")
            }
            configuration.options.maximumConnections = size
            configuration.options.minimumConnections = min(configuration.options.minimumConnections, size)
        }
        if let value = items.first(where: { $0.name == "connect_timeout" })?.value {
            guard let seconds = Int(value), (1...3_600).contains(seconds) else {
                throw StorageError(.invalidURL, "connect_timeout=\(value) is not a number of seconds from 1 to 3600")
            }
            configuration.options.connectTimeout = .seconds(seconds)
        }
        let applicationName = items.first { $0.name == "application_name" }?.value ?? "entitle"
        guard !applicationName.isEmpty, applicationName.utf8.count < 64, applicationName.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else {
            throw StorageError(.invalidURL, "application_name= is 1 to 63 printable ASCII characters")
        }
        configuration.options.additionalStartupParameters = [("application_name", applicationName)]
        return (configuration, tls)
    }

    /// The URL parameters read: libpq's `host`, `port`, `sslmode`, `sslrootcert`, `connect_timeout`,
    /// `application_name` (and its client-certificate ones, to refuse them by name), and Entitle's
    /// `pool_size`. Any other is refused, as libpq refuses parameters it doesn't know, so that a
    /// misspelt `sslmode` doesn't quietly connect without TLS.
    static let parameters: Set<String> = [
        "host", "port", "sslmode", "sslrootcert", "sslcert", "sslkey", "sslpassword", "connect_timeout", "application_name", "pool_size",
    ]

    /// Where a configuration's server is, as messages say it: `host:port`, or the socket's path.
    static func server(_ configuration: PostgresClient.Configuration) -> String {
        if let path = configuration.unixSocketPath { return path }
        return "\(configuration.host ?? "?"):\(configuration.port ?? 5432)"
    }

    /// A URL as messages may show it: its password replaced, or nothing of it if it doesn't parse.
    static func redacted(_ text: String) -> String {
        guard var components = URLComponents(string: text) else { return "the database URL" }
        if components.password != nil { components.password = "redacted" }
        return components.string ?? "the database URL"
    }
}
