import Foundation
import Logging
import Testing

@testable import EntitleStorage

/// The embedded engine's WAL checkpoints, on a connection of their own after the commits that cross
/// the threshold.
@Suite("WAL checkpointer", .timeLimit(.minutes(1)))
struct WALCheckpointerTests {
    @Test("commits past the threshold return while the checkpoint is held; once let go it copies the WAL into the database file")
    func commitsDoNotCheckpoint() async throws {
        try await Self.withHeldCheckpoints(threshold: 200) { engine, file, held, letGo in
            let sizeBefore = try file.databaseSize()
            // 1,200 pages in 12 commits: past the threshold and past SQLite's own checkpoint (1,000).
            for _ in 0..<12 { try await Self.insertPages(100, engine) }
            await held()
            #expect(try file.databaseSize() == sizeBefore, "a commit checkpointed")
            #expect(try file.walPages() >= 1_200)
            #expect(engine.walCheckpoints == 0)
            letGo()
            await engine.checkpointsSettled()
            #expect(engine.walCheckpoints >= 1)
            #expect(try file.databaseSize() >= sizeBefore + 1_200 * 4_096)
            // Checkpointed, the WAL starts over: the next commit doesn't grow its file.
            let walSize = try file.size(file.wal)
            try await Self.insertPages(100, engine)
            #expect(try file.size(file.wal) == walSize)
            #expect(try await Self.rows(engine) == 1_300)
        }
    }

    @Test("commits during a checkpoint ask for one more after it, and only one runs at a time")
    func commitsDuringACheckpoint() async throws {
        try await Self.withHeldCheckpoints(threshold: 200) { engine, _, held, letGo in
            for _ in 0..<3 { try await Self.insertPages(100, engine) }
            await held()
            // The first checkpoint is waiting; these ask for another.
            for _ in 0..<3 { try await Self.insertPages(100, engine) }
            letGo()
            await engine.checkpointsSettled()
            #expect(engine.walCheckpoints == 2)
        }
    }

    @Test("closing while a checkpoint is held waits for it; the file reopened holds every committed row")
    func closingDuringACheckpoint() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-checkpointer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("engine.sqlite").path
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (started, start) = AsyncStream<Void>.makeStream()
        let engine = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"), walCheckpointPages: 200) {
            start.yield()
            for await _ in gate {}
        }
        try await Self.createPages(engine)
        for _ in 0..<3 { try await Self.insertPages(100, engine) }
        for await _ in started { break }
        let closing = Task { await engine.close() }
        while !engine.checkpointerClosing { await Task.yield() }
        open.finish()
        await closing.value
        #expect(engine.walCheckpoints == 1)
        let reopened = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"))
        let rows = try await Self.rows(reopened)
        await reopened.close()
        #expect(rows == 300)
    }

    /// The engine's files: the database and its WAL.
    struct Files {
        let path: String
        var wal: String { path + "-wal" }
        func size(_ file: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0 }
        func databaseSize() throws -> Int { try size(path) }
        /// Each frame of the WAL is a page and a 24-byte header, after the file's 32-byte header.
        func walPages() throws -> Int { max(0, try size(wal) - 32) / (4_096 + 24) }
    }

    /// An engine with a `pages` table whose checkpoints wait at a gate: `held` returns once one is
    /// waiting there, `letGo` opens the gate for it and every later one.
    static func withHeldCheckpoints(
        threshold: Int,
        _ body: (SQLiteEngine, Files, _ held: () async -> Void, _ letGo: () -> Void) async throws -> Void
    ) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-checkpointer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("engine.sqlite").path
        // The file exists before, as it does when a server starts again.
        let creating = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"))
        try await createPages(creating)
        await creating.close()
        let (gate, open) = AsyncStream<Void>.makeStream()
        let (started, start) = AsyncStream<Void>.makeStream()
        let engine = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"), walCheckpointPages: threshold) {
            start.yield()
            for await _ in gate {}
        }
        do {
            try await body(engine, Files(path: path), { for await _ in started { break } }, { open.finish() })
        } catch {
            open.finish()
            await engine.close()
            throw error
        }
        open.finish()
        await engine.close()
    }

    static func createPages(_ engine: SQLiteEngine) async throws {
        _ = try await engine.transaction { session throws(StorageError) in
            try await session.execute("CREATE TABLE pages (b BLOB NOT NULL)", [])
        }
    }

    /// `count` rows of 3,000 bytes, a page each, in one transaction.
    static func insertPages(_ count: Int, _ engine: SQLiteEngine) async throws {
        _ = try await engine.transaction { session throws(StorageError) in
            try await session.execute("""
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO pages (b) SELECT randomblob(3000) FROM n
                """, [.integer(Int64(count))])
        }
    }

    static func rows(_ engine: SQLiteEngine) async throws -> Int64? {
        try await engine.read { session throws(StorageError) in
            try await session.execute("SELECT count(*) AS n FROM pages", []).first?["n"]?.integer
        }
    }
}
