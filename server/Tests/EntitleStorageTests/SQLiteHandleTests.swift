import Foundation
import Testing

@testable import EntitleStorage

/// One SQLite connection through the C API: binds, rows, kept statements and typed failures.
@Suite("SQLite handle")
struct SQLiteHandleTests {
    @Test("values bound are read back as they were: text (empty, multi-byte), 64-bit integers and null")
    func roundTrip() throws {
        try Self.withHandle { handle in
            _ = try handle.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, text TEXT, number INTEGER)", [])
            let texts = ["", "plain", "naïve café ☕️ — 日本", String(repeating: "x", count: 100_000)]
            for (index, text) in texts.enumerated() {
                _ = try handle.execute("INSERT INTO t (id, text, number) VALUES (?, ?, ?)", [.integer(Int64(index)), .text(text), .integer(Int64.min + Int64(index))])
            }
            _ = try handle.execute("INSERT INTO t (id, text, number) VALUES (?, ?, ?)", [.integer(99), .null, .null])
            let rows = try handle.execute("SELECT id, text, number FROM t ORDER BY id", [])
            #expect(rows.count == texts.count + 1)
            for (index, text) in texts.enumerated() {
                #expect(try rows[index].value("text") == .text(text))
                #expect(try rows[index].value("number") == .integer(Int64.min + Int64(index)))
            }
            #expect(try rows[texts.count].value("text") == .null)
            #expect(try rows[texts.count].value("number") == .null)
        }
    }

    @Test("a kept statement runs again with new binds, and more distinct statements than are kept all answer right")
    func keptStatements() throws {
        try Self.withHandle { handle in
            _ = try handle.execute("CREATE TABLE t (n INTEGER)", [])
            for n in 0..<10 { _ = try handle.execute("INSERT INTO t (n) VALUES (?)", [.integer(Int64(n))]) }
            for n in 0..<10 {
                #expect(try handle.execute("SELECT n FROM t WHERE n = ?", [.integer(Int64(n))]).first?.value("n") == .integer(Int64(n)))
            }
            // Statements of a varying number of placeholders, as `IN (…)` builds them: 600 distinct ones.
            for count in 1...600 {
                let values = (0..<count).map { SQLValue.integer(Int64($0 % 10)) }
                let placeholders = "(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")"
                let rows = try handle.execute("SELECT COUNT(*) AS c FROM t WHERE n IN \(placeholders)", values)
                #expect(try rows.first?.value("c") == .integer(Int64(min(count, 10))))
            }
        }
    }

    @Test("a kept statement whose plan looked at its binds is not prepared again on every run; placeholders given no value are null")
    func bindsAcrossRuns() throws {
        try Self.withHandle { handle in
            _ = try handle.execute("CREATE TABLE e (sequence INTEGER PRIMARY KEY, app_id TEXT NOT NULL, app_user_id TEXT, event TEXT NOT NULL)", [])
            for (index, user) in ["a", "b", "a", "c"].enumerated() {
                _ = try handle.execute("INSERT INTO e (app_id, app_user_id, event) VALUES (?, ?, ?)", [.text("app"), .text(user), .text("\(user)\(index)")])
            }
            _ = try handle.execute("INSERT INTO e (app_id, app_user_id, event) VALUES (?, ?, ?)", [.text("app"), .null, .text("held")])
            let query = "SELECT event FROM e WHERE app_id = ? AND app_user_id = ? ORDER BY sequence"
            for (user, events) in [("a", ["a0", "a2"]), ("b", ["b1"]), ("c", ["c3"]), ("a", ["a0", "a2"]), ("z", [])] {
                #expect(try handle.execute(query, [.text("app"), .text(user)]).compactMap { try $0.nullableText("event") } == events)
            }
            #expect(handle.repreparations(query) == 0)

            let count = "SELECT COUNT(*) AS n FROM e WHERE app_user_id IS ?"
            #expect(try handle.execute(count, [.text("a")]).first?.value("n") == .integer(2))
            #expect(try handle.execute(count, []).first?.value("n") == .integer(1))
        }
    }

    @Test("a failing statement throws a typed error naming the statement, and the connection goes on working")
    func failures() throws {
        try Self.withHandle { handle in
            _ = try handle.execute("CREATE TABLE t (n INTEGER PRIMARY KEY)", [])
            _ = try handle.execute("INSERT INTO t (n) VALUES (?)", [.integer(1)])
            let duplicate = #expect(throws: StorageError.self) { try handle.execute("INSERT INTO t (n) VALUES (?)", [.integer(1)]) }
            #expect(duplicate?.code == .queryFailed)
            #expect(duplicate?.message.contains("INSERT") == true)
            #expect(duplicate?.message.contains("UNIQUE") == true)
            #expect(duplicate?.underlying as? UniqueViolation == UniqueViolation(table: "t", columns: ["n"]), "the broken constraint, for the ledger to tell")
            let syntax = #expect(throws: StorageError.self) { try handle.execute("SELEKT 1", []) }
            #expect(syntax?.code == .queryFailed)
            _ = try handle.execute("INSERT INTO t (n) VALUES (?)", [.integer(2)])
            #expect(try handle.execute("SELECT COUNT(*) AS c FROM t", []).first?.value("c") == .integer(2))
        }
    }

    @Test("a closed handle refuses statements with unavailable; a database that can't be opened says where")
    func closedAndUnopenable() throws {
        try Self.withHandle { handle in
            handle.close()
            let closed = #expect(throws: StorageError.self) { try handle.execute("SELECT 1", []) }
            #expect(closed?.code == .unavailable)
        }
        let missing = #expect(throws: StorageError.self) { try SQLiteHandle(path: "/nonexistent-\(UUID().uuidString)/entitle.sqlite") }
        #expect(missing?.code == .unavailable)
        #expect(missing?.message.contains("/nonexistent-") == true)
    }

    static func withHandle(_ body: (SQLiteHandle) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-handle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let handle = try SQLiteHandle(path: folder.appendingPathComponent("t.sqlite").path)
        defer { handle.close() }
        try body(handle)
    }
}
