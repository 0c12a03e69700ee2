import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@Suite("PostgresTLS: sslmode and sslrootcert as libpq reads them")
struct PostgresTLSTests {
    static let logger = {
        var logger = Logger(label: "entitle.tests.postgres-tls")
        logger.logLevel = .error
        return logger
    }()

    /// A PEM file of one certificate, removed after `body`.
    static func withRootFile(_ body: (String) throws -> Void) throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-root-\(UUID().uuidString).pem")
        try TestPKI().rootPEM().write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        try body(file.path)
    }

    static func tls(_ url: String) throws -> PostgresTLS {
        guard case .postgres(_, let tls) = try LedgerDatabase(url: url) else { throw StorageError(.invalidURL, "not PostgreSQL") }
        return tls
    }

    @Test("each sslmode, with and without sslrootcert, checks the server's certificate as libpq does", arguments: [
        ("", PostgresTLS.Mode.disable, false, nil as CertificateVerification?),
        ("sslmode=disable", .disable, false, nil),
        ("sslmode=prefer", .prefer, false, CertificateVerification.none),
        ("sslmode=require", .require, false, CertificateVerification.none),
        ("sslmode=require&sslrootcert=ROOT", .require, true, .noHostnameVerification),
        ("sslmode=verify-ca", .verifyCA, false, .noHostnameVerification),
        ("sslmode=verify-ca&sslrootcert=ROOT", .verifyCA, true, .noHostnameVerification),
        ("sslmode=verify-full", .verifyFull, false, .fullVerification),
        ("sslmode=verify-full&sslrootcert=ROOT", .verifyFull, true, .fullVerification),
        ("sslmode=verify-full&sslrootcert=system", .verifyFull, false, .fullVerification),
    ])
    func modes(_ query: String, _ mode: PostgresTLS.Mode, _ rooted: Bool, _ verification: CertificateVerification?) throws {
        try Self.withRootFile { root in
            let tls = try Self.tls("postgres://entitle@db.internal/ledger?\(query.replacingOccurrences(of: "ROOT", with: root))")
            #expect(tls.mode == mode)
            #expect((tls.roots?.count ?? 0) == (rooted ? 1 : 0))
            #expect(tls.configuration?.certificateVerification == verification)
            if rooted, let roots = tls.roots {
                #expect(tls.configuration?.trustRoots == .certificates(roots), "sslrootcert's certificates, not the system's")
            } else if tls.configuration != nil {
                #expect(tls.configuration?.trustRoots == .default)
            }
        }
    }

    @Test("what libpq would do otherwise, or Entitle can't, is refused with storage.invalidURL and says why", arguments: [
        ("sslmode=allow", "use prefer"), ("sslmode=on", "is not one of disable, prefer, require, verify-ca, verify-full"),
        ("sslmode=require&sslcert=/etc/c.pem", "client certificate"), ("sslmode=require&sslkey=/etc/k.pem", "client certificate"),
        ("sslmode=require&sslrootcert=system", "needs sslmode=verify-full"), ("sslmode=disable&sslrootcert=ROOT", "needs an sslmode that uses TLS"),
        ("sslmode=verify-full&sslrootcert=/nonexistent/root.pem", "is not a readable PEM file"),
        ("sslmode=verify-full&sslrootcert=NOTPEM", "is not a readable PEM file"),
    ])
    func refused(_ query: String, _ reason: String) throws {
        try Self.withRootFile { root in
            let notPEM = root + ".txt"
            try "not a certificate".write(toFile: notPEM, atomically: true, encoding: .utf8)
            defer { try? FileManager.default.removeItem(atPath: notPEM) }
            let url = "postgres://entitle@db.internal/ledger?" + query.replacingOccurrences(of: "ROOT", with: root).replacingOccurrences(of: "NOTPEM", with: notPEM)
            let error = #expect(throws: StorageError.self) { try LedgerDatabase(url: url) }
            #expect(error?.code == .invalidURL)
            #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        }
    }

    @Test("a Unix-socket host ignores sslmode, as libpq does")
    func socketIgnoresMode() throws {
        #expect(try Self.tls("postgres://entitle@/ledger?host=/var/run/postgresql&sslmode=verify-full").mode == .disable)
    }

    static func cluster() throws -> (url: URLComponents, root: String, otherRoot: String) {
        let environment = ProcessInfo.processInfo.environment
        let url = try #require(
            environment[StorageEngine.postgresURLVariable].flatMap(URLComponents.init(string:)),
            "\(StorageEngine.postgresURLVariable) is not set: run the tests with scripts/test.sh, which starts PostgreSQL")
        let root = try #require(environment["ENTITLE_TEST_POSTGRES_TLS_ROOT"], "the test cluster's CA: run the tests with scripts/test.sh")
        let other = try #require(environment["ENTITLE_TEST_POSTGRES_TLS_OTHER_ROOT"], "a CA that issued nothing: run the tests with scripts/test.sh")
        return (url, root, other)
    }

    /// The test cluster's URL with `host` and the query replaced.
    static func url(host: String? = nil, _ query: [String: String]) throws -> String {
        var components = try cluster().url
        if let host { components.host = host }
        components.queryItems = query.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) }
        return try #require(components.string)
    }

    @Test("PostgreSQL: the pool's connections use TLS when the URL asks for it, and the ledger works through them", arguments: [
        ("127.0.0.1", "disable", false, false), ("127.0.0.1", "prefer", false, true), ("127.0.0.1", "require", false, true),
        ("127.0.0.1", "verify-ca", true, true), ("localhost", "verify-full", true, true),
    ])
    func encrypted(_ host: String, _ mode: String, _ rooted: Bool, _ encrypted: Bool) async throws {
        let root = try Self.cluster().root
        let url = try Self.url(host: host, rooted ? ["sslmode": mode, "sslrootcert": root] : ["sslmode": mode])
        let database = try LedgerDatabase(url: url)
        guard case .postgres(let configuration, _) = database else { Issue.record("not PostgreSQL"); return }
        try await StorageEngine.withClient(configuration) { client in
            let rows = try await client.query("SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()")
            var seen: [Bool] = []
            for try await ssl in rows.decode(Bool.self) { seen.append(ssl) }
            #expect(seen == [encrypted])
        }
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { fresh in
            var components = try #require(URLComponents(string: url))
            components.path = "/" + (fresh.database ?? "postgres")
            let appended = try await LedgerConnection.with(try LedgerDatabase(url: try #require(components.string)), logger: Self.logger) { store in
                let transaction = AppleFacts().subscription(
                    "com.example.monthly", original: "S1", id: "S1-0", purchase: ReferenceTime.start, expires: ISODuration(months: 1).added(to: ReferenceTime.start))
                _ = try await store.append(LedgerEvents.appTransaction(1, appUserID: "u1", transaction))
                return try await store.projection(appUserID: "u1")?.purchases["S1"]?.currentTransaction?.transactionId
            }
            #expect(appended == "S1-0")
        }
    }

    @Test("PostgreSQL: a certificate that fails the check fails start-up at once, saying so", arguments: [
        ("localhost", "verify-full", "OTHER", "CERTIFICATE_VERIFY_FAILED"),
        ("127.0.0.1", "verify-ca", "OTHER", "CERTIFICATE_VERIFY_FAILED"),
        ("127.0.0.1", "require", "OTHER", "CERTIFICATE_VERIFY_FAILED"),
        ("127.0.0.1", "verify-full", "ROOT", "failedToValidateHostname"),
    ])
    func refusedCertificate(_ host: String, _ mode: String, _ root: String, _ reason: String) async throws {
        let cluster = try Self.cluster()
        let url = try Self.url(host: host, ["sslmode": mode, "sslrootcert": root == "OTHER" ? cluster.otherRoot : cluster.root])
        let clock = SkippingClock()
        let error = await #expect(throws: StorageError.self) {
            try await LedgerConnection.open(try LedgerDatabase(url: url), logger: Self.logger, startupPatience: .seconds(600), clock: clock)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message.hasPrefix("PostgreSQL at \(host):\(cluster.url.port ?? 5432) failed the TLS handshake: ") == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(clock.sleeps.isEmpty, "waiting won't change a certificate")
    }

    @Test("PostgreSQL: verify-ca accepts the cluster's certificate (for localhost) reached as 127.0.0.1; verify-full doesn't (above)")
    func caWithoutName() async throws {
        let url = try Self.url(host: "127.0.0.1", ["sslmode": "verify-ca", "sslrootcert": try Self.cluster().root])
        try await PostgresStartupCheck(
            configuration: try PostgresLedgerStore.configuration(url: url), tls: try Self.tls(url), patience: .zero, logger: Self.logger
        ).run()
    }
}
