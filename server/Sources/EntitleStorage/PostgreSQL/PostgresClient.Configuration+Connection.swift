import NIOCore
import PostgresNIO

extension PostgresClient.Configuration {
    /// The configuration of one connection as the pool would open it: the same server, role,
    /// database, TLS, timeout and start-up parameters.
    func connection(tls: PostgresTLS) throws -> PostgresConnection.Configuration {
        var connection: PostgresConnection.Configuration
        if let path = unixSocketPath {
            connection = .init(unixSocketPath: path, username: username, password: password, database: database)
        } else {
            connection = .init(
                host: host ?? "localhost", port: port ?? 5432, username: username, password: password, database: database,
                tls: try tls.connection())
        }
        connection.options.connectTimeout = TimeAmount(options.connectTimeout)
        connection.options.requireBackendKeyData = options.requireBackendKeyData
        connection.options.tlsServerName = options.tlsServerName
        connection.options.additionalStartupParameters = options.additionalStartupParameters
        return connection
    }
}
