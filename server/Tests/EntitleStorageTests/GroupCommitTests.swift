import Foundation
import Logging
import Synchronization
import Testing

@testable import EntitleStorage

/// SQLite's group commit: transactions that wait for the writer commit together, each in its own
/// savepoint.
@Suite("Group commit")
struct GroupCommitTests {
    @Test("in concurrent transactions, those that throw are rolled back alone and the rest are committed")
    func failuresRollBackAlone() async throws {
        try await Self.withItemsTable { engine in
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                for n in 0..<40 {
                    group.addTask {
                        do {
                            try await engine.transaction { session throws(StorageError) in
                                _ = try await session.execute("INSERT INTO items (n) VALUES (?)", [.integer(Int64(n))])
                                if n % 3 == 0 { throw StorageError(.queryFailed, "refused on purpose") }
                            }
                            return (n, true)
                        } catch {
                            return (n, false)
                        }
                    }
                }
                return await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
            }
            let stored = try await Self.items(engine)
            #expect(stored == (0..<40).filter { $0 % 3 != 0 })
            #expect(outcomes.filter(\.value).keys.sorted() == stored)
        }
    }

    @Test("a caller cancelled while its batch commits neither fails the others' work nor leaves a transaction open")
    func cancelledHolder() async throws {
        try await Self.withItemsTable { engine in
            let (holder, open) = await Self.holder(engine, inserting: 1)
            let others = Self.inserts(engine, 2...3)
            holder.cancel()
            open()
            let holderCommitted = (try? await holder.value) != nil
            var othersCommitted = 0
            for other in others where (try? await other.value) != nil { othersCommitted += 1 }
            let later: Void? = try? await engine.transaction { session throws(StorageError) in
                _ = try await session.execute("INSERT INTO items (n) VALUES (4)", [])
            }
            let stored = try? await Self.items(engine)
            #expect(othersCommitted == 2)
            #expect(later != nil)
            #expect(stored == (holderCommitted ? [1, 2, 3, 4] : [2, 3, 4]))
        }
    }

    @Test("transactions that arrive while a batch commits are committed together in the next one, each caller with its own result")
    func arrivalsShareTheNextCommit() async throws {
        let groups = Groups()
        try await Self.withItemsTable(observer: StorageObserver(groupCommitted: { count in groups.sizes.withLock { $0.append(count) } })) { engine in
            groups.sizes.withLock { $0.removeAll() }
            let (holder, open) = await Self.holder(engine, inserting: 0)
            let arrivals = Self.inserts(engine, 1...10)
            while engine.queuedWrites < arrivals.count { try await Task.sleep(for: .milliseconds(1)) }
            open()
            #expect(try await holder.value == 0)
            for (index, arrival) in arrivals.enumerated() { #expect(try await arrival.value == index + 1) }
            #expect(groups.sizes.withLock { $0 } == [1, arrivals.count])
            #expect(try await Self.items(engine) == Array(0...10))
        }
    }

    @Test("closing while transactions wait for the writer returns, and so does every transaction, committed or failed")
    func closingWithQueuedWork() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("group.sqlite").path
        let engine = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"))
        _ = try await engine.transaction { session throws(StorageError) in try await session.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)", []) }
        let (holder, open) = await Self.holder(engine, inserting: 0)
        let queued = Self.inserts(engine, 1...3)
        while engine.queuedWrites < queued.count { try await Task.sleep(for: .milliseconds(1)) }
        let closing = Task { await engine.close() }
        open()
        await closing.value
        var committed: [Int] = []
        if (try? await holder.value) != nil { committed.append(0) }
        for (index, work) in queued.enumerated() where (try? await work.value) != nil { committed.append(index + 1) }
        let after: Void? = try? await engine.transaction { session throws(StorageError) in
            _ = try await session.execute("INSERT INTO items (n) VALUES (9)", [])
        }
        #expect(after == nil)
        let reopened = try await SQLiteEngine.open(path: path, logger: .init(label: "entitle.tests"))
        let stored = try await Self.items(reopened)
        await reopened.close()
        #expect(committed.contains(0))
        #expect(stored == committed)
    }

    /// A transaction inserting `n` whose work waits, inside the open transaction, until `open` is
    /// called; returned once its work has started, so it holds the writer.
    static func holder(_ engine: SQLiteEngine, inserting n: Int) async -> (transaction: Task<Int, any Error>, open: @Sendable () -> Void) {
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let (gate, gateContinuation) = AsyncStream<Void>.makeStream()
        let transaction = Task {
            try await engine.transaction { session throws(StorageError) in
                _ = try await session.execute("INSERT INTO items (n) VALUES (?)", [.integer(Int64(n))])
                startedContinuation.finish()
                for await _ in gate {}
                return n
            }
        }
        for await _ in started {}
        return (transaction, { gateContinuation.finish() })
    }

    /// A transaction for each of `values`, inserting it and returning it.
    static func inserts(_ engine: SQLiteEngine, _ values: ClosedRange<Int>) -> [Task<Int, any Error>] {
        values.map { n in
            Task {
                try await engine.transaction { session throws(StorageError) in
                    _ = try await session.execute("INSERT INTO items (n) VALUES (?)", [.integer(Int64(n))])
                    return n
                }
            }
        }
    }

    /// The sizes of the groups committed, in order.
    final class Groups: Sendable {
        let sizes = Mutex<[Int]>([])
    }

    /// Runs `body` on an engine over a new database file with an empty `items (n)` table, then
    /// closes it and deletes the file.
    static func withItemsTable(observer: StorageObserver = .none, _ body: (SQLiteEngine) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let engine = try await SQLiteEngine.open(
            path: folder.appendingPathComponent("group.sqlite").path, logger: .init(label: "entitle.tests"), observer: observer)
        do {
            _ = try await engine.transaction { session throws(StorageError) in
                try await session.execute("CREATE TABLE items (n INTEGER PRIMARY KEY)", [])
            }
            try await body(engine)
        } catch {
            await engine.close()
            throw error
        }
        await engine.close()
    }

    static func items(_ engine: SQLiteEngine) async throws -> [Int] {
        try await engine.read { session throws(StorageError) in
            try await session.execute("SELECT n FROM items ORDER BY n", []).map { row throws(StorageError) in Int(try row.integer("n")) }
        }
    }
}
