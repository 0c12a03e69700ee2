import EntitleStorage
import Foundation
import PostgresNIO

/// The test cluster's migrated, empty ledger database, made once and copied by each test that asks
/// for a migrated database (`CREATE DATABASE … TEMPLATE`): migrating costs more than copying, and
/// every PostgreSQL test would otherwise migrate its own. What migrating does is tested on empty
/// databases of their own (`LedgerSchemaTests`).
///
/// Its name carries the test binary's identity (size and modification time), so a rebuilt binary, whose
/// migrations may differ, makes its own; the templates of earlier builds are dropped then.
public actor PostgresTemplate {
    public static let shared = PostgresTemplate()

    private var made: Task<String, any Error>?

    /// The template's name, made on first use (once per process; another process's is taken as it is).
    public func name(admin: PostgresClient.Configuration) async throws -> String {
        if let made { return try await made.value }
        let task = Task { try await Self.make(admin: admin) }
        made = task
        return try await task.value
    }

    static let prefix = "entitle_template_"

    static func identity() -> String {
        let attributes = try? FileManager.default.attributesOfItem(atPath: "/proc/self/exe")
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return String(size, radix: 16) + "_" + String(Int64(modified * 1_000), radix: 16)
    }

    private static func make(admin: PostgresClient.Configuration) async throws -> String {
        let name = prefix + identity()
        var exists = false
        try await StorageEngine.withClient(admin) { client in
            let rows = try await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'entitle_template_%'")
            var others: [String] = []
            for try await datname in rows.decode(String.self) {
                if datname == name { exists = true } else { others.append(datname) }
            }
            // An earlier build's, or one another process left half made: best effort, as one in use stays.
            for other in others where !other.hasPrefix(name) {
                _ = try? await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(other)"))
            }
        }
        if exists { return name }

        // Made under a name of its own, then renamed: of two processes making it at once, one's is kept.
        let draft = name + "_" + UUID().uuidString.prefix(8).lowercased()
        try await StorageEngine.withClient(admin) { try await $0.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(draft)")) }
        var configuration = admin
        configuration.database = draft
        try await StorageEngine.withClient(configuration) { client in
            _ = try await PostgresLedgerStore.open(client: client)
        }
        try await StorageEngine.withClient(admin) { client in
            // The migration's connections may take a moment to end on the server's side.
            for attempt in 1...50 {
                do {
                    try await client.query(PostgresQuery(unsafeSQL: "ALTER DATABASE \(draft) RENAME TO \(name)"))
                    return
                } catch let error as PSQLError where error.serverInfo?[.sqlState] == "42P04" {
                    // Another process made it first.
                    _ = try? await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(draft) WITH (FORCE)"))
                    return
                } catch where attempt < 50 {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
        }
        return name
    }
}
