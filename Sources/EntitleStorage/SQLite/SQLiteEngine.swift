import Foundation
import Logging
import SQLiteNIO

/// The embedded engine: one SQLite file in WAL mode. Writes go through one connection, one
/// transaction at a time (SQLite has a single writer; `BEGIN IMMEDIATE` takes the write lock up front).
/// Reads use a second connection and see a consistent snapshot while writes proceed (WAL).
final class SQLiteEngine: SQLEngine {
    let connection: SQLiteConnection
    let reader: SQLiteConnection
    private let mutex = AsyncMutex()
    private let readerMutex = AsyncMutex()
    let sequenceColumn = "INTEGER PRIMARY KEY AUTOINCREMENT"

    private init(connection: SQLiteConnection, reader: SQLiteConnection) {
        self.connection = connection
        self.reader = reader
    }

    /// Opens (creating when missing) the database file at `path`, creating its folder too.
    static func open(path: String, logger: Logger) async throws(StorageError) -> SQLiteEngine {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(.unavailable, "cannot create the data folder \(folder.path)", underlying: error)
        }
        let connection: SQLiteConnection
        let reader: SQLiteConnection
        do {
            connection = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
            reader = try await SQLiteConnection.open(storage: .file(path: path), logger: logger)
        } catch {
            throw StorageError(.unavailable, "cannot open the SQLite database \(path)", underlying: error)
        }
        let engine = SQLiteEngine(connection: connection, reader: reader)
        for pragma in ["PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA busy_timeout = 5000", "PRAGMA foreign_keys = ON"] {
            _ = try await engine.run(pragma, [])
        }
        _ = try await engine.run("PRAGMA busy_timeout = 5000", [], on: reader)
        return engine
    }

    func transaction<T: Sendable>(_ work: @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        try await run(work, on: connection, serialisedBy: mutex, begin: "BEGIN IMMEDIATE")
    }

    func read<T: Sendable>(_ work: @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        try await run(work, on: reader, serialisedBy: readerMutex, begin: "BEGIN")
    }

    /// Runs `work` in one transaction on `connection`, one at a time: committed when it returns,
    /// rolled back when it throws.
    private func run<T: Sendable>(
        _ work: @Sendable (any SQLSession) async throws(StorageError) -> T, on connection: SQLiteConnection, serialisedBy mutex: AsyncMutex,
        begin: String
    ) async throws(StorageError) -> T {
        try await mutex.withLock { () throws(StorageError) -> T in
            _ = try await self.run(begin, [], on: connection)
            do throws(StorageError) {
                let result = try await work(Session(engine: self, connection: connection))
                _ = try await self.run("COMMIT", [], on: connection)
                return result
            } catch {
                _ = try? await self.run("ROLLBACK", [], on: connection)
                throw error
            }
        }
    }

    func close() async {
        try? await reader.close()
        try? await connection.close()
    }

    fileprivate func run(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [[String: SQLValue]] {
        try await run(sql, binds, on: connection)
    }

    fileprivate func run(_ sql: String, _ binds: [SQLValue], on connection: SQLiteConnection) async throws(StorageError) -> [[String: SQLValue]] {
        let data: [SQLiteData] = binds.map { value in
            switch value {
            case .text(let text): .text(text)
            case .integer(let integer): .integer(Int(integer))
            case .null: .null
            }
        }
        do {
            let rows = try await connection.query(sql, data)
            return rows.map { row in
                var columns: [String: SQLValue] = [:]
                for column in row.columns {
                    switch column.data {
                    case .integer(let integer): columns[column.name] = .integer(Int64(integer))
                    case .text(let text): columns[column.name] = .text(text)
                    case .float(let double): columns[column.name] = .integer(Int64(double))
                    case .blob, .null: columns[column.name] = .null
                    }
                }
                return columns
            }
        } catch {
            throw StorageError(.queryFailed, "an SQLite statement failed: \(String(describing: error))", underlying: error)
        }
    }

    private struct Session: SQLSession {
        let engine: SQLiteEngine
        let connection: SQLiteConnection
        func execute(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [[String: SQLValue]] {
            try await engine.run(sql, binds, on: connection)
        }
        /// Transactions are already one at a time.
        func lock(_ key: String) async throws(StorageError) {}
    }
}
