import Testing

@testable import EntitleStorage

/// Values bound to statements, and `IN` lists built from them.
@Suite("SQLValue")
struct SQLValueTests {
    @Test("an IN list is padded to the next power of two with its last value", arguments: [1, 2, 3, 4, 5, 7, 8, 9, 100, 500, 512, 513])
    func paddedInList(count: Int) {
        let values = (0..<count).map { SQLValue.text("id-\($0)") }
        let list = SQLValue.inList(values)
        let padded = list.values.count
        #expect(padded >= count && padded < 2 * count + 1)
        #expect(padded & (padded - 1) == 0)
        #expect(Array(list.values.prefix(count)) == values)
        #expect(list.values.dropFirst(count).allSatisfy { $0 == values.last })
        #expect(list.placeholders.filter { $0 == "?" }.count == padded)
    }

    @Test("counts from 1 to 512 make ten statement shapes")
    func fewShapes() {
        let shapes = Set((1...512).map { count in SQLValue.inList((0..<count).map { SQLValue.integer(Int64($0)) }).placeholders })
        #expect(shapes.count == 10)
    }

    @Test("a padded IN list selects exactly the listed rows", arguments: [1, 3, 6, 17])
    func sameRows(count: Int) throws {
        try SQLiteHandleTests.withHandle { handle in
            _ = try handle.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)", [])
            for id in 0..<40 { _ = try handle.execute("INSERT INTO t (id) VALUES (?)", [.integer(Int64(id))]) }
            let wanted = (0..<count).map { SQLValue.integer(Int64($0 * 2)) }
            let list = SQLValue.inList(wanted)
            let rows = try handle.execute("SELECT id FROM t WHERE id IN \(list.placeholders) ORDER BY id", list.values)
            #expect(try rows.map { try $0.value("id") } == wanted)
        }
    }

    @Test("an empty IN list selects nothing")
    func emptyInList() throws {
        try SQLiteHandleTests.withHandle { handle in
            _ = try handle.execute("CREATE TABLE t (id INTEGER PRIMARY KEY)", [])
            _ = try handle.execute("INSERT INTO t (id) VALUES (1)", [])
            let list = SQLValue.inList([])
            #expect(try handle.execute("SELECT id FROM t WHERE id IN \(list.placeholders)", list.values).isEmpty)
        }
    }
}
