import Foundation

/// The HTTP configuration of the server.
public struct HTTPConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Bodies larger than this are refused with 413.
    public var maximumBodySize: Int
    /// Whether each connection's requests are handled on its event loop (``EventLoopChildChannel``)
    /// rather than on Swift concurrency's global executor; nil: when the ledger's reads have
    /// connections on the event loops (a PostgreSQL ledger the server opens, ``LedgerConnection``).
    /// On SQLite, whose statements run on a thread pool, the global executor measured faster.
    public var requestsOnEventLoops: Bool?

    public init(host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 1024 * 1024, requestsOnEventLoops: Bool? = nil) {
        self.host = host
        self.port = port
        self.maximumBodySize = maximumBodySize
        self.requestsOnEventLoops = requestsOnEventLoops
    }
}
