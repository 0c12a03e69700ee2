import EntitleStorage
import Foundation
import Logging
import PostgresNIO

/// The migrated, empty ledger databases the PostgreSQL tests run on, from the test cluster.
///
/// Creating a database costs PostgreSQL ~0.3 s of CPU (it copies the template's 8 MB of catalogs) and
/// migrating one as much again; 140 tests did both. Instead, one database is migrated once (the
/// template), a few copies of it are made (at most ``capacity``), and each test borrows one. When a
/// test gives it back, it is reset to the template's state: connections left open are ended, every
/// table's rows deleted and the template's rows put back (the schema's versions), each sequence set
/// back; a database whose schema or settings a test changed (a table added, connections refused) is
/// dropped instead, and a new copy made in its place. A test borrowing a second database while it
/// holds one gets a copy of its own, dropped afterwards, so borrowing never waits on itself.
///
/// The template's name carries the test binary's identity (size and modification time): a rebuilt
/// binary, whose migrations may differ, makes its own. Databases of earlier builds, and the borrowed
/// copies of processes no longer running, are dropped when the template is made.
public actor PostgresTestDatabases {
    public static let shared = PostgresTestDatabases()
    /// How many borrowed copies exist at once; more tests wait for one to come back.
    public static let capacity = 8

    @TaskLocal static var borrowing = false

    private var template: Task<Template, any Error>?
    private var free: [String] = []
    private var made = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// What a borrowed database is reset to.
    struct Template: Sendable {
        var name: String
        /// The statement that deletes every row and puts the template's back, sets the sequences back.
        var reset: String
        /// The schema's and the database's settings, as ``fingerprintQuery`` reads them.
        var fingerprint: String
    }

    static let prefix = "entitle_template_"
    static let copyPrefix = "entitle_pool_"

    /// Runs `body` with the configuration of a migrated, empty database on the cluster `admin` reaches.
    public nonisolated func withDatabase(
        admin: PostgresClient.Configuration, _ body: (PostgresClient.Configuration) async throws -> Void
    ) async throws {
        let template = try await self.template(admin: admin)
        if Self.borrowing {
            try await Self.withCopy(of: template, admin: admin, body)
            return
        }
        let name = try await borrow(template, admin: admin)
        var configuration = admin
        configuration.database = name
        do {
            try await Self.$borrowing.withValue(true) { try await body(configuration) }
        } catch {
            await giveBack(name, template: template, admin: admin)
            throw error
        }
        await giveBack(name, template: template, admin: admin)
    }

    /// The template's name, made on first use in the process.
    public func templateName(admin: PostgresClient.Configuration) async throws -> String {
        try await template(admin: admin).name
    }

    func template(admin: PostgresClient.Configuration) async throws -> Template {
        if let template { return try await template.value }
        let task = Task { try await Self.makeTemplate(admin: admin) }
        template = task
        return try await task.value
    }

    private func borrow(_ template: Template, admin: PostgresClient.Configuration) async throws -> String {
        while true {
            if let name = free.popLast() { return name }
            if made < Self.capacity {
                made += 1
                let name = "\(Self.copyPrefix)\(getpid())_\(UUID().uuidString.prefix(8).lowercased())"
                do {
                    try await Self.execute("CREATE DATABASE \(name) TEMPLATE \(template.name)", admin: admin)
                } catch {
                    made -= 1
                    resumeOne()
                    throw error
                }
                return name
            }
            await withCheckedContinuation { waiting.append($0) }
        }
    }

    private func giveBack(_ name: String, template: Template, admin: PostgresClient.Configuration) async {
        if (try? await Self.reset(name, to: template, admin: admin)) == true {
            free.append(name)
        } else {
            try? await Self.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)", admin: admin)
            made -= 1
        }
        resumeOne()
    }

    private func resumeOne() {
        if !waiting.isEmpty { waiting.removeFirst().resume() }
    }

    /// Resets `name` to `template`'s state: `false` when its schema or settings differ from the template's.
    static func reset(_ name: String, to template: Template, admin: PostgresClient.Configuration) async throws -> Bool {
        try await StorageEngine.withClient(admin) { client in
            _ = try await client.query(PostgresQuery(unsafeSQL: """
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '\(name)' AND pid <> pg_backend_pid()
                """))
        }
        var configuration = admin
        configuration.database = name
        var same = false
        try await StorageEngine.withClient(configuration) { client in
            guard try await fingerprint(client) == template.fingerprint else { return }
            _ = try await client.query(PostgresQuery(unsafeSQL: template.reset))
            same = true
        }
        return same
    }

    /// A copy of the template for the duration of `body`, then dropped.
    static func withCopy(
        of template: Template, admin: PostgresClient.Configuration, _ body: (PostgresClient.Configuration) async throws -> Void
    ) async throws {
        let name = "entitle_\(UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased())"
        try await execute("CREATE DATABASE \(name) TEMPLATE \(template.name)", admin: admin)
        var configuration = admin
        configuration.database = name
        do {
            try await body(configuration)
        } catch {
            try? await execute("DROP DATABASE \(name) WITH (FORCE)", admin: admin)
            throw error
        }
        try await execute("DROP DATABASE \(name) WITH (FORCE)", admin: admin)
    }

    static func execute(_ sql: String, admin: PostgresClient.Configuration) async throws {
        try await StorageEngine.withClient(admin) { _ = try await $0.query(PostgresQuery(unsafeSQL: sql)) }
    }

    static func identity() -> String {
        let executable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().path
        let attributes = try? FileManager.default.attributesOfItem(atPath: executable)
        let size = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
        return String(size, radix: 16) + "_" + String(Int64(modified * 1_000), radix: 16)
    }

    /// The schema (tables' columns, indexes, constraints, routines, views, sequences) and the database's
    /// own settings (whether it takes connections, their limit, settings stored for it), as one text.
    static let fingerprintQuery = """
        SELECT md5(coalesce(string_agg(item, E'\\n' ORDER BY item), '')) AS fingerprint FROM (
            SELECT format('column %s.%s %s %s %s', table_name, column_name, data_type, is_nullable, column_default) AS item
                FROM information_schema.columns WHERE table_schema = 'public'
            UNION ALL SELECT format('index %s', indexdef) FROM pg_indexes WHERE schemaname = 'public'
            UNION ALL SELECT format('constraint %s %s', conname, pg_get_constraintdef(c.oid))
                FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace WHERE n.nspname = 'public'
            UNION ALL SELECT format('routine %s %s', p.oid::regprocedure, md5(p.prosrc))
                FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
            UNION ALL SELECT format('view %s %s', viewname, md5(definition)) FROM pg_views WHERE schemaname = 'public'
            UNION ALL SELECT format('sequence %s', sequencename) FROM pg_sequences WHERE schemaname = 'public'
            UNION ALL SELECT format('trigger %s', tgname) FROM pg_trigger WHERE NOT tgisinternal
            UNION ALL SELECT format('database %s %s', datallowconn, datconnlimit) FROM pg_database WHERE datname = current_database()
            UNION ALL SELECT format('settings %s', setconfig) FROM pg_db_role_setting s JOIN pg_database d ON d.oid = s.setdatabase
                WHERE d.datname = current_database()
        ) AS items
        """

    static func fingerprint(_ client: PostgresClient) async throws -> String {
        var result = ""
        for try await value in try await client.query(PostgresQuery(unsafeSQL: fingerprintQuery)).decode(String.self) { result = value }
        return result
    }

    private static func makeTemplate(admin: PostgresClient.Configuration) async throws -> Template {
        let name = prefix + identity()
        var exists = false
        try await StorageEngine.withClient(admin) { client in
            var stale: [String] = []
            let rows = try await client.query("SELECT datname FROM pg_database WHERE datname LIKE 'entitle_template_%' OR datname LIKE 'entitle_pool_%'")
            for try await datname in rows.decode(String.self) {
                if datname == name {
                    exists = true
                } else if datname.hasPrefix(copyPrefix) {
                    // A borrowed copy of a process no longer running.
                    let pid = datname.dropFirst(copyPrefix.count).prefix { $0 != "_" }
                    if !FileManager.default.fileExists(atPath: "/proc/\(pid)") { stale.append(datname) }
                } else if !datname.hasPrefix(name) {
                    stale.append(datname)
                }
            }
            // Best effort: one in use by another run stays.
            for database in stale { _ = try? await client.query(PostgresQuery(unsafeSQL: "DROP DATABASE IF EXISTS \(database)")) }
        }
        if !exists {
            // Made under a name of its own, then renamed: of two processes making it at once, one's is kept.
            let draft = name + "_" + UUID().uuidString.prefix(8).lowercased()
            try await execute("CREATE DATABASE \(draft)", admin: admin)
            var configuration = admin
            configuration.database = draft
            try await StorageEngine.withClient(configuration) { client in
                _ = try await PostgresLedgerStore.open(client: client)
            }
            try await rename(draft, to: name, admin: admin)
        }
        // What a borrowed copy is reset to, read from a copy (no one may be connected to a template).
        var template = Template(name: name, reset: "", fingerprint: "")
        try await withCopy(of: template, admin: admin) { configuration in
            try await StorageEngine.withClient(configuration) { client in
                template.fingerprint = try await fingerprint(client)
                template.reset = try await resetStatement(client)
            }
        }
        return template
    }

    private static func rename(_ draft: String, to name: String, admin: PostgresClient.Configuration) async throws {
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
    }

    /// One statement (a `DO` block, one transaction): every table's rows deleted, the rows the migrated
    /// database has put back, each sequence set to where it was.
    static func resetStatement(_ client: PostgresClient) async throws -> String {
        var tables: [String] = []
        for try await table in try await client.query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").decode(String.self) {
            tables.append(table)
        }
        var statements = tables.map { "DELETE FROM \(quoted($0));" }
        for table in tables {
            let rows = try await client.query(PostgresQuery(unsafeSQL: "SELECT coalesce(json_agg(t), '[]')::text FROM \(quoted(table)) AS t"))
            for try await json in rows.decode(String.self) where json != "[]" {
                let tag = "$rows_\(UUID().uuidString.prefix(8).lowercased())$"
                statements.append(
                    "INSERT INTO \(quoted(table)) OVERRIDING SYSTEM VALUE SELECT * FROM json_populate_recordset(NULL::\(quoted(table)), \(tag)\(json)\(tag));")
            }
        }
        let sequences = try await client.query(
            "SELECT sequencename, start_value, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY sequencename")
        for try await (sequence, start, last) in sequences.decode((String, Int64, Int64?).self) {
            statements.append("PERFORM setval('\(quoted(sequence))', \(last ?? start), \(last != nil));")
        }
        return "DO $reset$ BEGIN\n" + statements.joined(separator: "\n") + "\nEND $reset$"
    }

    static func quoted(_ identifier: String) -> String {
        "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
