import Foundation
import Logging
import Testing

@testable import EntitleStorage

/// The embedded engine's file: how its WAL is checkpointed into the database file.
@Suite("SQLite engine")
struct SQLiteEngineTests {
    @Test("the writer checkpoints the WAL into the database file once it holds 4,000 pages, not before, then reuses it")
    func walCheckpoint() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-engine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("engine.sqlite").path
        let engine = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"))
        do {
            let pageSize = try await engine.read { session throws(StorageError) in
                try await session.execute("PRAGMA page_size", []).first?.nullableInteger("page_size")
            }
            #expect(pageSize == 4_096)
            func size(_ file: String) throws -> Int { try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int ?? 0 }
            // Each frame of the WAL is a page and a 24-byte header, after the file's 32-byte header.
            func walPages() throws -> Int { max(0, try size(path + "-wal") - 32) / (4_096 + 24) }
            func databaseSize() throws -> Int { try size(path) }
            _ = try await engine.transaction { session throws(StorageError) in
                try await session.execute("CREATE TABLE pages (b BLOB NOT NULL)", [])
            }
            let sizeBefore = try databaseSize()
            // 100 rows of 3,000 bytes, a page each, per transaction, until the database file grows.
            var pagesBeforeCheckpoint: [Int] = []
            var pagesAtCheckpoint: Int?
            for _ in 0..<60 where pagesAtCheckpoint == nil {
                _ = try await engine.transaction { session throws(StorageError) in
                    try await session.execute("""
                        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
                        INSERT INTO pages (b) SELECT randomblob(3000) FROM n
                        """, [])
                }
                if try databaseSize() == sizeBefore {
                    pagesBeforeCheckpoint.append(try walPages())
                } else {
                    pagesAtCheckpoint = try walPages()
                }
            }
            let walSize = try size(path + "-wal")
            // Once checkpointed, the next transaction writes from the WAL's start: the file doesn't grow.
            _ = try await engine.transaction { session throws(StorageError) in
                try await session.execute("INSERT INTO pages (b) VALUES (randomblob(3000))", [])
            }
            let rows = try await engine.read { session throws(StorageError) in
                try await session.execute("SELECT count(*) AS n FROM pages", []).first?.nullableInteger("n")
            }
            #expect(pagesBeforeCheckpoint.count > 30, "the WAL was checkpointed at \(pagesBeforeCheckpoint.last ?? 0) pages")
            #expect(pagesBeforeCheckpoint.allSatisfy { $0 < 4_000 })
            #expect((pagesAtCheckpoint ?? 0) >= 4_000)
            #expect(try size(path + "-wal") == walSize)
            #expect(rows == Int64(pagesBeforeCheckpoint.count * 100 + 101))
        } catch {
            await engine.close()
            throw error
        }
        await engine.close()
    }

    /// SQLite's temporary files open in this process: it opens them unnamed (`O_TMPFILE`) in the
    /// temporary folder, so they show among the descriptors as `/var/tmp/#<inode> (deleted)`.
    static func openTemporaryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").compactMap { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")).flatMap { link in
                link.wholeMatch(of: /.*\/#[0-9]+ \(deleted\)/) == nil ? nil : link
            }
        }
    }

    @Test("a transaction's savepoint journal stays in memory: a group that rewrites 300 pages opens no temporary file")
    func savepointJournalInMemory() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-engine-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try await SQLiteEngine.open(path: folder.appendingPathComponent("engine.sqlite").path, logger: .init(label: "entitle.tests"))
        do {
            _ = try await engine.transaction { session throws(StorageError) in
                _ = try await session.execute("CREATE TABLE pages (b BLOB NOT NULL)", [])
                return try await session.execute("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
                    INSERT INTO pages (b) SELECT randomblob(3000) FROM n
                    """, [])
            }
            // Rewriting every row journals each page as it was: 1.2 MB, past SQLite's 64 KiB spill.
            let during = try await engine.transaction { session throws(StorageError) in
                _ = try await session.execute("UPDATE pages SET b = randomblob(3000)", [])
                return (try? Self.openTemporaryFiles()) ?? ["/proc/self/fd unreadable"]
            }
            #expect(during.isEmpty, "\(during)")
            let rows = try await engine.read { session throws(StorageError) in
                try await session.execute("SELECT count(*) AS n FROM pages", []).first?.nullableInteger("n")
            }
            #expect(rows == 300)
        } catch {
            await engine.close()
            throw error
        }
        await engine.close()
    }
}
