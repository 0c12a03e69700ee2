import EntitleStorage
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@Suite("PostgresStartupCheck: a PostgreSQL that can't work says why at start-up")
struct PostgresStartupCheckTests {
    static let logger = {
        var logger = Logger(label: "entitle.tests.startup-check")
        logger.logLevel = .error
        return logger
    }()

    static func testCluster() throws -> PostgresClient.Configuration {
        try StorageEngine.testClusterConfiguration()
    }

    @Test("PostgreSQL: a reachable server with the role and the database passes at the first attempt")
    func reachable() async throws {
        let clock = SkippingClock()
        try await PostgresStartupCheck(configuration: try Self.testCluster(), patience: .seconds(600), clock: clock, logger: Self.logger).run()
        #expect(clock.sleeps.isEmpty)
    }

    @Test(
        "PostgreSQL: a missing database or role fails at once with PostgreSQL's reason, however long the patience",
        arguments: [
            ("database", "3D000", "database \"entitle_no_such_database\" does not exist"),
            ("role", "28000", "role \"entitle_no_such_role\" does not exist"),
        ])
    func refusedAtOnce(_ missing: String, _ state: String, _ reason: String) async throws {
        var configuration = try Self.testCluster()
        if missing == "database" { configuration.database = "entitle_no_such_database" } else { configuration.username = "entitle_no_such_role" }
        let clock = SkippingClock()
        let error = await #expect(throws: StorageError.self) {
            try await LedgerConnection.open(.postgres(configuration), logger: Self.logger, startupPatience: .seconds(600), clock: clock)
        }
        #expect(error?.code == .unavailable)
        #expect(error?.message == "PostgreSQL at \(configuration.host ?? ""):\(configuration.port ?? 0) refused the connection: \(reason) (SQLSTATE \(state))")
        #expect(clock.sleeps.isEmpty, "a refusal that waiting won't change is not retried")
    }

    @Test("a server not listening is tried again, waiting longer each time, for 30 s unless told otherwise; the password is never said")
    func unreachableUntilPatience() async throws {
        let configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: 1, username: "entitle", password: "pw-not-to-be-said", database: "ledger", tls: .disable)
        let clock = SkippingClock()
        let error = await #expect(throws: StorageError.self) {
            try await PostgresStartupCheck(configuration: configuration, clock: clock, logger: Self.logger).run()
        }
        #expect(error?.code == .unavailable)
        #expect(PostgresStartupCheck.standardPatience == .seconds(30))
        #expect(
            clock.sleeps == [.milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5), .seconds(5), .seconds(5)],
            "pauses double up to 5 s; the next would go past 30 s")
        let message = try #require(error?.message)
        #expect(message.hasPrefix("PostgreSQL at 127.0.0.1:1 can't be reached: "))
        #expect(message.contains("Connection refused"))
        #expect(message.hasSuffix(" (9 attempts over 27.5 s)"))
        #expect(!message.contains("pw-not-to-be-said") && !String(describing: error).contains("pw-not-to-be-said"))
    }

    @Test("with no patience a server not listening fails after one attempt; a missing socket names its path")
    func noPatience() async throws {
        for configuration in [
            PostgresClient.Configuration(host: "127.0.0.1", port: 1, username: "entitle", password: nil, database: "ledger", tls: .disable),
            PostgresClient.Configuration(unixSocketPath: "/nonexistent/entitle/.s.PGSQL.5432", username: "entitle", password: nil, database: "ledger"),
        ] {
            let clock = SkippingClock()
            let error = await #expect(throws: StorageError.self) {
                try await PostgresStartupCheck(configuration: configuration, patience: .zero, clock: clock, logger: Self.logger).run()
            }
            #expect(error?.code == .unavailable)
            #expect(clock.sleeps.isEmpty)
            let server = configuration.unixSocketPath ?? "127.0.0.1:1"
            #expect(error?.message.hasPrefix("PostgreSQL at \(server) can't be reached: ") == true)
            #expect(error?.message.contains("attempts") == false)
        }
    }

    @Test("a cancelled start-up stops waiting and says so")
    func cancelled() async throws {
        let configuration = PostgresClient.Configuration(host: "127.0.0.1", port: 1, username: "entitle", password: nil, database: "ledger", tls: .disable)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await PostgresStartupCheck(configuration: configuration, patience: .seconds(600), clock: SkippingClock(), logger: Self.logger).run()
        }
        let error = await #expect(throws: StorageError.self) { try await task.value }
        #expect(error?.message.hasSuffix("(start-up cancelled)") == true)
    }
}
