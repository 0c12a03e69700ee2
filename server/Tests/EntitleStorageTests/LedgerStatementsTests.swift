import Testing

@testable import EntitleStorage

@Suite("LedgerStatements")
struct LedgerStatementsTests {
    @Test("kept statements, PostgreSQL's append calls among them, have distinct names PostgreSQL keeps whole (at most 63 bytes)")
    func names() {
        let kept = PostgresEngine.keptStatements
        let names = kept.map { $0.name }
        #expect(Set(names).count == names.count)
        for name in names { #expect(name.utf8.count <= 63, "\(name)") }
        #expect(Set(kept.map { $0.sql }).count == names.count)
    }

    @Test("placeholders are numbered for PostgreSQL, a statement without any is left as it is")
    func numbered() {
        let read = PostgresEngine.numberPlaceholders(LedgerStatements.SubscriberRead.sql)
        #expect(read.contains("s.revision = $1 THEN"))
        #expect(read.hasSuffix("s.app_id = $4 AND s.app_user_id = $5"))
        #expect(!read.contains("?"))
        #expect(PostgresEngine.numberPlaceholders("SELECT 1") == "SELECT 1")
        #expect(PostgresEngine.numberPlaceholders("a ? b ? c ? d ? e ? f ? g ? h ? i ? j ? k ?") == "a $1 b $2 c $3 d $4 e $5 f $6 g $7 h $8 i $9 j $10 k $11")
    }
}
