import EntitleStorage
import PostgresNIO
import Testing

@Suite("PostgresLedgerStore: database URLs")
struct PostgresURLTests {
    @Test("a URL gives host, port, user, password, database and pool size")
    func parts() throws {
        let configuration = try PostgresLedgerStore.configuration(url: "postgres://entitle:pw@db.internal:6543/ledger?sslmode=disable&pool_size=40")
        #expect(configuration.host == "db.internal")
        #expect(configuration.port == 6543)
        #expect(configuration.username == "entitle")
        #expect(configuration.password == "pw")
        #expect(configuration.database == "ledger")
        #expect(configuration.options.maximumConnections == 40)
        #expect(try PostgresLedgerStore.configuration(url: "postgresql://localhost/x").options.maximumConnections == 20)
    }

    @Test("what a URL can't say is refused with storage.invalidURL", arguments: [
        "mysql://localhost/x", "postgres:///x", "postgres://localhost/x?sslmode=require", "postgres://localhost/x?pool_size=0",
        "postgres://localhost/x?pool_size=many", "postgres://localhost/x?pool_size=5000",
    ])
    func refused(_ url: String) {
        #expect { try PostgresLedgerStore.configuration(url: url) } throws: { ($0 as? StorageError)?.code == .invalidURL }
    }
}
