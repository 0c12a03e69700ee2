import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@Suite("PostgresLedgerStore: database URLs")
struct PostgresURLTests {
    @Test("a URL gives host, port, user, password, database, pool size, connect timeout and application name")
    func parts() throws {
        let configuration = try PostgresLedgerStore.configuration(
            url: "postgres://entitle:pw@db.internal:6543/ledger?sslmode=disable&pool_size=40&connect_timeout=3&application_name=entitle-eu-1")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "entitle")
        #expect(configuration.password == "pw")
        #expect(configuration.database == "ledger")
        #expect(configuration.options.maximumConnections == 40)
        #expect(configuration.options.connectTimeout == .seconds(3))
        #expect(configuration.options.additionalStartupParameters.map { "\($0.0)=\($0.1)" } == ["application_name=entitle-eu-1"])
        let plain = try PostgresLedgerStore.configuration(url: "postgresql://localhost/x")
        #expect(plain.options.maximumConnections == 20)
        #expect(plain.options.connectTimeout == .seconds(10))
        #expect(plain.options.additionalStartupParameters.map { "\($0.0)=\($0.1)" } == ["application_name=entitle"])
    }

    @Test("host= names a Unix-socket directory (libpq's form) or a host; port= the port", arguments: [
        ("postgres://entitle@/ledger?host=/var/run/postgresql", "/var/run/postgresql/.s.PGSQL.5432", nil, 5432),
        ("postgresql:///ledger?host=/var/run/postgresql/&port=6543", "/var/run/postgresql/.s.PGSQL.6543", nil, 5432),
        ("postgres://entitle@:6000/ledger?host=/tmp/pg&pool_size=4", "/tmp/pg/.s.PGSQL.6000", nil, 5432),
        ("postgres://entitle@localhost/ledger?host=db.internal&port=6543", nil, "db.internal", 6543),
    ] as [(String, String?, String?, Int)])
    func socketOrHost(_ url: String, socket: String?, host: String?, port: Int) throws {
        let configuration = try PostgresLedgerStore.configuration(url: url)
        #expect(configuration.unixSocketPath == socket)
        #expect(configuration.host == host)
        if host != nil { #expect(configuration.port == port) }
        #expect(configuration.database == "ledger")
    }

    @Test("what a URL can't say is refused with storage.invalidURL", arguments: [
        "mysql://localhost/x", "postgres:///x", "postgres://localhost/x?sslmode=allow", "postgres://localhost/x?pool_size=0",
        "postgres://localhost/x?pool_size=many", "postgres://localhost/x?pool_size=5000", "postgres:///x?host=",
        "postgres:///x?host=/run/postgresql&port=0", "postgres://localhost/x?port=99999", "postgres://localhost/x?port=five",
        "postgres:///x?host=/run/postgresql&sslmode=verify-everything", "postgres://localhost:99999999/x", "postgres://localhost:0/x",
        "postgres://localhost/x?sslmod=require", "postgres://localhost/x?target_session_attrs=read-write", "postgres://localhost/x?connect_timeout=0",
        "postgres://localhost/x?connect_timeout=soon", "postgres://localhost/x?application_name=", "postgres://localhost/x?application_name=caf%C3%A9",
        "postgres://localhost/x?application_name=\(String(repeating: "a", count: 64))",
    ])
    func refused(_ url: String) {
        #expect { try PostgresLedgerStore.configuration(url: url) } throws: { ($0 as? StorageError)?.code == .invalidURL }
    }

    @Test("the ledger's description names the server and its TLS mode, never the password", arguments: [
        ("postgres://entitle:pw-never-shown@db.internal/ledger", "PostgreSQL on db.internal:5432"),
        ("postgres://entitle:pw-never-shown@db.internal:6543/ledger?sslmode=verify-full", "PostgreSQL on db.internal:6543 (TLS, sslmode=verify-full)"),
        ("postgres://entitle:pw-never-shown@/ledger?host=/var/run/postgresql&sslmode=require", "PostgreSQL on /var/run/postgresql/.s.PGSQL.5432"),
        ("sqlite:entitle-data/entitle.sqlite", "sqlite:entitle-data/entitle.sqlite"),
        ("memory:", "memory: (kept until the process ends)"),
    ])
    func described(_ url: String, _ description: String) throws {
        #expect(try LedgerDatabase(url: url).description == description)
    }

    @Test("memory: opens a ledger in memory that appends and reads; anything after the colon is refused", arguments: ["memory:", "memory:x", "memory"])
    func memory(_ url: String) async throws {
        guard url == "memory:" else {
            #expect { try LedgerDatabase(url: url) } throws: { ($0 as? StorageError)?.code == .invalidURL }
            return
        }
        let connection = try await LedgerConnection.open(try LedgerDatabase(url: url), logger: Logger(label: "entitle.tests.memory"))
        #expect(connection.store is MemoryLedgerStore)
        _ = try await connection.store.append(LedgerEvents.admin(1, appUserID: "u1", at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start)))
        #expect(try await connection.store.events(appUserID: "u1").count == 1)
    }

    @Test("a refused URL's message never shows its password", arguments: [
        "postgres://entitle:pw-never-shown@/ledger", "postgresql://entitle:pw-never-shown@/ledger?host=", "mysql://entitle:pw-never-shown@db/ledger",
    ])
    func refusedWithoutPassword(_ url: String) {
        let error = #expect(throws: StorageError.self) { try PostgresLedgerStore.configuration(url: url) }
        #expect(error?.code == .invalidURL)
        #expect(error?.message.contains("pw-never-shown") == false, "\(error?.message ?? "")")
        #expect(error?.message.hasSuffix("is not a postgres://user:password@host:port/database URL") == true)
    }

    @Test("PostgreSQL: a ledger opened through the cluster's Unix socket appends and reads, with no TCP in between")
    func throughTheSocket() async throws {
        let variable = "ENTITLE_TEST_POSTGRES_SOCKET_URL"
        let url = try #require(
            ProcessInfo.processInfo.environment[variable], "\(variable) is not set: run the tests with scripts/test.sh, which starts PostgreSQL")
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { loopback in
            var configuration = try PostgresLedgerStore.configuration(url: url)
            #expect(configuration.unixSocketPath != nil)
            configuration.database = loopback.database
            try await StorageEngine.withClient(configuration) { client in
                let rows = try await client.query("SELECT inet_server_addr() IS NULL AS local, current_setting('application_name') AS name")
                for try await (local, name) in rows.decode((Bool, String).self) {
                    #expect(local, "a Unix-socket connection has no server address")
                    #expect(name == "entitle", "the connections name themselves in pg_stat_activity")
                }
                let store = try await PostgresLedgerStore.open(client: client)
                let transaction = AppleFacts().subscription(
                    "com.example.monthly", original: "S1", id: "S1-0", purchase: ReferenceTime.start, expires: ISODuration(months: 1).added(to: ReferenceTime.start))
                #expect(try await store.append(LedgerEvents.appTransaction(1, appUserID: "u1", transaction)) == .appended(sequence: 1, appUserID: "u1"))
                #expect(try await store.projection(appUserID: "u1")?.purchases["S1"]?.currentTransaction?.transactionId == "S1-0")
            }
        }
    }
}
