import Foundation
import Logging
import NIOPosix

/// The embedded engine: one SQLite file in WAL mode. Writes go through one connection (SQLite has a
/// single writer), with group commit: transactions waiting for the writer commit together, each in
/// its own savepoint, under one fsync. Reads use a second connection and see a consistent snapshot
/// while writes proceed (WAL).
///
/// Statements run on the calling thread through SQLite's C API (``SQLiteHandle``), each connection
/// behind its own mutex; only a commit, which waits for the disk, moves to a thread of its own, so a
/// transaction of many statements costs one thread hop, not one per statement.
final class SQLiteEngine: SQLEngine {
    private let connection: SQLiteHandle
    private let reader: SQLiteHandle
    private let readerMutex = AsyncMutex()
    private let writer: GroupCommit
    private let observer: StorageObserver
    private let threadPool: NIOThreadPool
    let sequenceColumn = "INTEGER PRIMARY KEY AUTOINCREMENT"
    let sequenceReset: String? = nil
    let uncompressedPayloads: String? = nil
    let byteOrder = ""
    /// One writer commits in sequence order: every visible event is below any later one.
    let appendGuardStatement: String? = nil
    func instant(_ milliseconds: String) -> String { "strftime('%Y-%m-%dT%H:%M:%fZ', \(milliseconds) / 1000.0, 'unixepoch')" }
    func date(_ day: String) -> String { "date(\(day) * 86400, 'unixepoch')" }
    let secureDeletion: (on: String, off: String)? = ("PRAGMA secure_delete = ON", "PRAGMA secure_delete = FAST")
    let aggregates = AggregateCache()
    let chains = CertificateChainCache()

    /// WAL pages after which a commit checkpoints (`PRAGMA wal_autocheckpoint`).
    static let walCheckpointPages = 4_000

    func readHorizon() async throws(StorageError) -> Int64 { .max }

    /// The writer is one connection: a statement commits with the writer's next group.
    func statement<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        try await transaction(work)
    }

    private init(connection: SQLiteHandle, reader: SQLiteHandle, observer: StorageObserver, threadPool: NIOThreadPool) {
        self.connection = connection
        self.reader = reader
        self.observer = observer
        self.threadPool = threadPool
        self.writer = GroupCommit(session: Session(handle: connection), observer: observer) { statement throws(StorageError) in
            guard statement == "COMMIT" else {
                _ = try connection.execute(statement, [])
                return
            }
            // The commit's fsync (and any checkpoint) waits for the disk: off the caller's thread.
            do {
                try await threadPool.runIfActive { () throws -> Void in _ = try connection.execute(statement, []) }
            } catch let error as StorageError {
                throw error
            } catch {
                throw StorageError(.unavailable, "the SQLite commit could not run: \(error)", underlying: error)
            }
        }
    }

    /// Opens (creating when missing) the database file at `path`, creating its folder too.
    static func open(
        path: String, logger: Logger, observer: StorageObserver = .none, threadPool: NIOThreadPool = .singleton
    ) async throws(StorageError) -> SQLiteEngine {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw StorageError(.unavailable, "cannot create the data folder \(folder.path)", underlying: error)
        }
        let connection = try SQLiteHandle(path: path)
        let reader = try SQLiteHandle(path: path)
        for pragma in ["PRAGMA busy_timeout = 5000", "PRAGMA journal_mode = WAL", "PRAGMA synchronous = FULL", "PRAGMA foreign_keys = ON"] {
            _ = try connection.execute(pragma, [])
        }
        // What a write frees inside a page is zeroed as the page is written anyway (no more I/O), so a
        // deleted customer's data doesn't linger in free space a later write left behind; an erasure
        // zeroes whole freed pages too (``secureDeletion``).
        _ = try connection.execute("PRAGMA secure_delete = FAST", [])
        // The writer checkpoints the WAL into the database file once it holds this many pages (SQLite's
        // default is 1,000). An event with its signed payload, indexes, projection and analytics mark
        // writes ~20 pages, so the default checkpointed (and synced the database file) every few dozen
        // events, inside the commit that every waiting append waits for. 4,000 pages (16 MB) keeps the WAL
        // about within the first of its index's hash tables (4,062 pages), where a read finds a page
        // with one lookup.
        _ = try connection.execute("PRAGMA wal_autocheckpoint = \(walCheckpointPages)", [])
        // Group commit runs each transaction in a savepoint, whose journal (the pages as they were
        // before it, to roll it back alone) SQLite moves to a temporary file past 64 KiB: a file opened
        // and written for nearly every group. Kept in memory, it costs no system call; it is gone at
        // the commit, and never needed for recovery (the WAL is).
        _ = try connection.execute("PRAGMA temp_store = MEMORY", [])
        _ = try reader.execute("PRAGMA busy_timeout = 5000", [])
        return SQLiteEngine(connection: connection, reader: reader, observer: observer, threadPool: threadPool)
    }

    func transaction<T: Sendable>(_ work: @escaping @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        let asked = ContinuousClock.now
        let observer = observer
        return try await writer.transaction { session throws(StorageError) in
            try await observer.session(.write, askedAt: asked) { () throws(StorageError) in try await work(session) }
        }
    }

    /// Reads are single statements, one at a time on the reader connection.
    func read<T: Sendable>(_ work: @Sendable (any SQLSession) async throws(StorageError) -> T) async throws(StorageError) -> T {
        let asked = ContinuousClock.now
        return try await readerMutex.withLock { () throws(StorageError) -> T in
            try await observer.session(.read, askedAt: asked) { () throws(StorageError) in try await work(Session(handle: self.reader)) }
        }
    }

    /// Write transactions waiting for the writer's next group.
    var queuedWrites: Int { writer.queuedCount }

    func close() async {
        let (reader, connection) = (reader, connection)
        try? await readerMutex.withLock { () throws(StorageError) in reader.close() }
        await writer.closing { connection.close() }
    }

    private struct Session: SQLSession {
        let handle: SQLiteHandle
        func execute(_ sql: String, _ binds: [SQLValue]) async throws(StorageError) -> [SQLRow] {
            try handle.execute(sql, binds)
        }
        /// Transactions are already one at a time.
        func lock(_ lock: LedgerLock) async throws(StorageError) {}
    }
}
