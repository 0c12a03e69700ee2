import ArgumentParser
import EntitleStorage
import Foundation

/// `entitle backup`: a consistent copy of the ledger while the server runs (docs/operations.md, "Backups").
/// SQLite: the online backup API, checked; PostgreSQL: `pg_dump --format=custom`.
struct BackupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copy the ledger while the server runs: SQLite's online backup, or pg_dump for PostgreSQL.",
        discussion: """
            SQLite: the copy is the ledger at one instant (every committed event, none half-written), checked with SQLite's \\
            integrity check; restore by stopping the server and putting the copy in place of the database file. PostgreSQL: \\
            runs pg_dump --format=custom (it must be on PATH); restore with pg_restore. Check a restored ledger with \\
            entitle rebuild. OUTPUT must not exist.
            """)

    @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
    var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"

    @Option(help: "The backup file to write (never overwritten).", completion: .file()) var output: String

    func run() async throws {
        guard !FileManager.default.fileExists(atPath: output) else { throw ValidationError("--output \(output) exists: a backup never overwrites a file") }
        switch try CommandInputs.database(database) {
        case .sqlite(let path):
            let clock = ContinuousClock()
            let started = clock.now
            let outcome: SQLiteBackup.Outcome
            do {
                outcome = try SQLiteBackup.copy(from: path, to: output)
            } catch {
                throw CommandFailure("\(error.code): \(error.message)")
            }
            let took = clock.now - started
            let seconds = Double(took.components.seconds) + Double(took.components.attoseconds) / 1e18
            print(String(format: "backed up %@ to %@: %d pages, %.1f MB in %.1f s; integrity check ok", path, output, outcome.pages,
                         Double(outcome.bytes) / 1_048_576, seconds))
        case .postgres:
            guard let pgDump = Self.executable("pg_dump") else {
                throw CommandFailure("pg_dump is not on PATH: install PostgreSQL's client tools (apt install postgresql-client), or run pg_dump yourself")
            }
            let process = Process()
            process.executableURL = URL(fileURLWithPath: pgDump)
            // The URL goes to pg_dump as its connection string, not through a shell.
            process.arguments = ["--format=custom", "--file", output, "--dbname", database]
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                try? FileManager.default.removeItem(atPath: output)
                throw CommandFailure("pg_dump exited with status \(process.terminationStatus)")
            }
            print("backed up the PostgreSQL ledger to \(output) (pg_dump custom format; restore with pg_restore)")
        case .memory:
            throw ValidationError("--database memory: holds nothing to back up")
        }
    }

    /// The path of `name` on PATH, if any.
    static func executable(_ name: String) -> String? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
