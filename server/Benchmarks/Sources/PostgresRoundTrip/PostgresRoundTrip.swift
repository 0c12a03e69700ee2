import EntitleCore
import EntitleStorage
import Foundation
import LedgerPopulation
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// What one PostgreSQL read costs on this machine, path by path, each at saturation (32 tasks, closed
/// loop) in the same run: `pgbench -S` (C, the reference), PostgresNIO's paths with a statement shaped
/// like the subscriber read, and the ledger's own read of a subscriber; for each URL given (e.g. the
/// same database over loopback TCP and through its Unix socket, `?host=/directory`).
///
///     swift run --package-path Benchmarks -c release PostgresRoundTrip 'postgres://…/database' ['postgres://…@/database?host=/socket/directory']
@main
enum PostgresRoundTrip {
    static let tasks = 32
    static let seconds = 3.0

    struct SubscriberRow: PostgresPreparedStatement {
        static let name = "round_trip_read"
        static let sql = """
            SELECT app_user_id AS found, revision, CASE WHEN revision = $1 THEN NULL ELSE projection END AS projection
            FROM round_trip_subscribers WHERE app_id = $2 AND app_user_id = $3
            """
        typealias Row = PostgresRow
        let kept: Int64
        let user: String
        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 3)
            bindings.append(kept)
            bindings.append("com.screentimerewards")
            bindings.append(user)
            return bindings
        }
        func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
    }

    static func main() async throws {
        let urls = CommandLine.arguments.dropFirst()
        guard !urls.isEmpty else {
            print("usage: PostgresRoundTrip postgres://…/database [postgres://…/database …]")
            return
        }
        let logger = {
            var logger = Logger(label: "entitle.round-trip")
            logger.logLevel = .error
            return logger
        }()
        for url in urls {
            print("## \(url.contains("host=/") ? "Unix socket" : "TCP")\n")
            try await measure(url, logger: logger)
            print()
        }
    }

    static func measure(_ url: String, logger: Logger) async throws {
        let configuration = try PostgresLedgerStore.configuration(url: url)
        let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            try await setUp(client, logger: logger)
            var rows: [(String, Double)] = []
            if let pgbench = pgbench(url) { rows.append(("`pgbench -S -M prepared`, 32 clients, 2 threads, 3,000 reads each (C, the reference)", pgbench)) }
            rows.append(("lease, prepared statement, rows as an async sequence (as the ledger runs its statements)", try await saturation { index in
                try await client.withConnection { connection in
                    var count = 0
                    for try await _ in try await connection.execute(SubscriberRow(kept: 1, user: "user-\(index % 100)"), logger: logger) { count += 1 }
                    precondition(count == 1)
                }
            }))
            rows.append(("client.execute, prepared statement (lease released at the sequence's end)", try await saturation { index in
                var count = 0
                for try await _ in try await client.execute(SubscriberRow(kept: 1, user: "user-\(index % 100)"), logger: logger) { count += 1 }
                precondition(count == 1)
            }))
            rows.append(("lease, unnamed statement, rows collected on the event loop (future)", try await saturation { index in
                try await client.withConnection { connection in
                    let result = try await connection.query(
                        "SELECT app_user_id AS found, revision, CASE WHEN revision = \(Int64(1)) THEN NULL ELSE projection END AS projection FROM round_trip_subscribers WHERE app_id = \("com.screentimerewards") AND app_user_id = \("user-\(index % 100)")",
                        logger: logger
                    ).get()
                    precondition(result.rows.count == 1)
                }
            }))
            rows.append(("lease, prepared statement, on the connection's event loop (task executor)", try await saturation { index in
                try await client.withConnection { connection in
                    try await withTaskExecutorPreference(EventLoopTaskExecutor(connection.eventLoop)) {
                        var count = 0
                        for try await _ in try await connection.execute(SubscriberRow(kept: 1, user: "user-\(index % 100)"), logger: logger) { count += 1 }
                        precondition(count == 1)
                    }
                }
            }))
            let store = try await PostgresLedgerStore.open(client: client, logger: logger)
            let ledger = store.forApp("com.screentimerewards")
            let people = Population.people(events: 600)
            for person in people { for event in person { _ = try await ledger.append(event) } }
            let subscribers = people.count
            _ = try await ledger.projection(appUserID: "user-0", latestGlobalEvent: .openAccess)
            rows.append(("the ledger's read of a subscriber (`projection(appUserID:latestGlobalEvent:)`, \(subscribers) subscribers)", try await saturation { index in
                let read = try await ledger.projection(appUserID: "user-\(index % subscribers)", latestGlobalEvent: .openAccess)
                precondition(read.facts != nil)
            }))
            await store.close()
            let reference = rows.first?.1
            print("| path (\(tasks) tasks, closed loop, \(Int(seconds)) s) | reads/s | 2-core µs a read | ratio to the first |")
            print("|---|---:|---:|---:|")
            for (name, rate) in rows {
                print("| \(name) | \(Int(rate)) | \(String(format: "%.0f", 2e6 / rate)) | \(reference.map { String(format: "%.2f", rate / $0) } ?? "") |")
            }
            group.cancelAll()
        }
    }

    static func setUp(_ client: PostgresClient, logger: Logger) async throws {
        try await client.query("DROP TABLE IF EXISTS round_trip_subscribers", logger: logger)
        try await client.query(
            "CREATE TABLE round_trip_subscribers (app_id TEXT NOT NULL, app_user_id TEXT NOT NULL, revision BIGINT NOT NULL, projection TEXT NOT NULL, PRIMARY KEY (app_id, app_user_id))",
            logger: logger)
        let projection = String(repeating: "x", count: 1_000)
        for user in 0..<100 {
            try await client.query(
                "INSERT INTO round_trip_subscribers VALUES (\("com.screentimerewards"), \("user-\(user)"), \(Int64(1)), \(projection))", logger: logger)
        }
    }

    /// Reads answered per second by `tasks` tasks each starting its next read when the last is answered.
    static func saturation(_ read: @escaping @Sendable (Int) async throws -> Void) async throws -> Double {
        for index in 0..<200 { try await read(index) }
        let clock = ContinuousClock()
        let start = clock.now
        let end = start + .milliseconds(Int(seconds * 1000))
        let total = try await withThrowingTaskGroup(of: Int.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    var (count, index) = (0, task)
                    while clock.now < end {
                        try await read(index)
                        count += 1
                        index += tasks
                    }
                    return count
                }
            }
            return try await group.reduce(0, +)
        }
        let elapsed = clock.now - start
        return Double(total) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    /// `pgbench -S -M prepared` against the same server (its own tables, made first), if it is installed; a
    /// number of reads rather than `-T`, whose alarm signal this process's children may have blocked.
    static func pgbench(_ url: String) -> Double? {
        func run(_ arguments: [String]) -> String? {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["pgbench"] + arguments
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            do { try process.run() } catch { return nil }
            let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return process.terminationStatus == 0 ? output : nil
        }
        guard run(["-i", "-s", "1", "-q", url]) != nil, let output = run(["-S", "-M", "prepared", "-c", "32", "-j", "2", "-t", "3000", url]),
              let line = output.split(separator: "\n").first(where: { $0.hasPrefix("tps = ") })
        else { return nil }
        return Double(line.dropFirst(6).prefix { $0 != " " })
    }
}

/// Runs a task's jobs on an event loop, so a task waiting for that loop's I/O resumes on its thread.
final class EventLoopTaskExecutor: TaskExecutor {
    let loop: any EventLoop

    init(_ loop: any EventLoop) { self.loop = loop }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        loop.execute { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
