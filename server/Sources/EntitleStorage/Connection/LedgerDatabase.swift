import Foundation
import PostgresNIO

/// Where a ledger lives, read from a database URL: `sqlite:PATH`,
/// `postgres://user:password@host:port/database?sslmode=disable` (or another `sslmode`: ``PostgresTLS``),
/// or `memory:` (nothing kept after the process ends).
public enum LedgerDatabase: Sendable, CustomStringConvertible {
    /// The embedded engine: one SQLite file (created with its folder when missing).
    case sqlite(path: String)
    /// PostgreSQL, shared by any number of server instances; `tls` is the configuration's own TLS,
    /// for the connection made before the pool opens (``PostgresStartupCheck``).
    case postgres(PostgresClient.Configuration, tls: PostgresTLS = .disable)
    /// A ledger in this process's memory (``MemoryDatabase``): for trying Entitle and for tests; what it
    /// holds is gone when the process ends.
    case memory

    /// Parses a database URL; any other form is `storage.invalidURL`.
    public init(url: String) throws(StorageError) {
        if url.hasPrefix("sqlite:") {
            let path = String(url.dropFirst("sqlite:".count))
            guard !path.isEmpty else { throw StorageError(.invalidURL, "sqlite: needs a file path, as in sqlite:entitle-data/entitle.sqlite") }
            self = .sqlite(path: path)
        } else if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") {
            let settings = try PostgresLedgerStore.settings(url: url)
            self = .postgres(settings.configuration, tls: settings.tls)
        } else if url == "memory:" {
            self = .memory
        } else {
            throw StorageError(.invalidURL, "the database is sqlite:PATH, a postgres:// URL or memory:")
        }
    }

    /// The folder an embedded ledger keeps its file in; `nil` for PostgreSQL and memory.
    public var folder: URL? {
        guard case .sqlite(let path) = self else { return nil }
        return URL(fileURLWithPath: path).deletingLastPathComponent()
    }

    /// What to call the ledger in messages: the SQLite path, or PostgreSQL's server (`host:port` or the
    /// socket's path) and its TLS mode; never a password.
    public var description: String {
        switch self {
        case .sqlite(let path): "sqlite:\(path)"
        case .postgres(let configuration, let tls):
            "PostgreSQL on \(PostgresLedgerStore.server(configuration))"
                + (tls.mode == .disable ? "" : " (TLS, sslmode=\(tls.mode.rawValue))")
        case .memory: "memory: (kept until the process ends)"
        }
    }
}
