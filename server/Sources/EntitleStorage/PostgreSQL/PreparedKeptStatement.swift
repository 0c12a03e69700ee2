import PostgresNIO

/// A ``KeptStatement`` as PostgresNIO prepares it: under the statement's name, once per connection,
/// its `?` placeholders numbered; rows come back as they are, for the session to read.
struct PreparedKeptStatement<Statement: KeptStatement>: PostgresPreparedStatement {
    typealias Row = PostgresRow

    static var name: String { Statement.name }
    static var sql: String {
        PostgresEngine.numberedKeptTexts[ObjectIdentifier(Statement.self)] ?? PostgresEngine.numberPlaceholders(Statement.sql)
    }

    let bindings: PostgresBindings

    func makeBindings() -> PostgresBindings { bindings }
    func decodeRow(_ row: PostgresRow) -> PostgresRow { row }
}
