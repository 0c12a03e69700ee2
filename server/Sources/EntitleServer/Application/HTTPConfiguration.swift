import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The HTTP configuration of the server.
public struct HTTPConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// Bodies larger than this are refused with 413: at once when `Content-Length` says so, else when
    /// the limit is reached.
    public var maximumBodySize: Int
    /// A connection that sends nothing for this long (no request, or a request that stalls) is closed.
    public var idleTimeout: Duration
    /// A request's body must arrive in full within this long of its head, however steadily it trickles.
    public var bodyTimeout: Duration
    /// Connections open at once; past it, new ones wait in the kernel's backlog until one closes.
    /// `nil`: three quarters of the process's file descriptor limit, at most 10,000, so the ledger
    /// and the server's own files always have descriptors left.
    public var maximumConnections: Int?
    /// Whether each connection's requests are handled on its event loop (``EventLoopChildChannel``)
    /// rather than on Swift concurrency's global executor; nil: when the ledger's reads have
    /// connections on the event loops (a PostgreSQL ledger the server opens, ``LedgerConnection``).
    /// On SQLite, whose statements run on a thread pool, the global executor measured faster.
    public var requestsOnEventLoops: Bool?

    public init(
        host: String = "127.0.0.1", port: Int = 8080, maximumBodySize: Int = 1024 * 1024, idleTimeout: Duration = .seconds(60),
        bodyTimeout: Duration = .seconds(60), maximumConnections: Int? = nil, requestsOnEventLoops: Bool? = nil
    ) {
        self.bodyTimeout = bodyTimeout
        self.host = host
        self.port = port
        self.maximumBodySize = maximumBodySize
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
        self.requestsOnEventLoops = requestsOnEventLoops
    }

    /// The connection cap in force: ``maximumConnections``, or one derived from the descriptor limit.
    public var connectionLimit: Int {
        if let maximumConnections { return max(1, maximumConnections) }
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 768 }
        let descriptors = Int(clamping: limit.rlim_cur)
        return max(16, min(10_000, descriptors / 4 * 3))
    }
}
