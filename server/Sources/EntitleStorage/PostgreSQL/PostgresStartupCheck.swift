import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO

/// One connection made and closed before the pool opens, with the pool's TLS (`tls`, read from the
/// same URL), so that a PostgreSQL URL that can't work says why at start-up: a server that refuses the
/// role or the password, has no such database, or whose TLS certificate fails the check, fails at once
/// (waiting won't change it); a server not reachable yet (connection refused, a timeout, PostgreSQL
/// starting up or full) is tried again, waiting longer each time, for up to `patience`. Either way the
/// error is `storage.unavailable`, naming the server (never the password) and PostgreSQL's, TLS's or
/// the network's reason.
///
/// Without it, the pool keeps retrying in the background and the first statement fails only when its
/// circuit breaker trips (about a minute), with no reason given.
public struct PostgresStartupCheck: Sendable {
    let configuration: PostgresClient.Configuration
    let tls: PostgresTLS
    let patience: Duration
    /// Starts a stopwatch on the clock given: the time since, whenever asked.
    let stopwatch: @Sendable () -> @Sendable () -> Duration
    let sleep: @Sendable (Duration) async throws -> Void
    let logger: Logger
    let eventLoopGroup: any EventLoopGroup

    /// How long start-up waits for a PostgreSQL that isn't reachable yet, unless told otherwise.
    public static let standardPatience: Duration = .seconds(30)

    public init<C: Clock<Duration> & Sendable>(
        configuration: PostgresClient.Configuration, tls: PostgresTLS = .disable, patience: Duration = Self.standardPatience, clock: C = ContinuousClock(),
        logger: Logger, eventLoopGroup: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) {
        self.configuration = configuration
        self.tls = tls
        self.patience = patience
        stopwatch = {
            let start = clock.now
            return { start.duration(to: clock.now) }
        }
        sleep = { try await clock.sleep(for: $0) }
        self.logger = logger
        self.eventLoopGroup = eventLoopGroup
    }

    /// Connects once, then again after a pause while the failure may pass and `patience` lasts.
    public func run() async throws(StorageError) {
        let elapsed = stopwatch()
        let connectionConfiguration: PostgresConnection.Configuration
        do {
            connectionConfiguration = try configuration.connection(tls: tls)
        } catch {
            throw StorageError(.unavailable, "PostgreSQL at \(server): the TLS configuration can't be used (\(error))", underlying: error)
        }
        var pause: Duration = .milliseconds(500)
        var attempts = 0
        while true {
            attempts += 1
            let failure: Failure
            do {
                let connection = try await PostgresConnection.connect(
                    on: eventLoopGroup.any(), configuration: connectionConfiguration, id: 0, logger: logger)
                try? await connection.close()
                return
            } catch {
                failure = Self.failure(error)
            }
            let waited = elapsed()
            guard failure.mayPass, waited + pause <= patience else {
                let tries = attempts == 1 ? "" : " (\(attempts) attempts over \(Self.seconds(waited)))"
                throw StorageError(.unavailable, "PostgreSQL at \(server) \(failure.reason)\(tries)", underlying: failure.error)
            }
            logger.warning("PostgreSQL is not reachable yet; trying again", metadata: [
                "server": "\(server)", "reason": "\(failure.reason)", "retry.in": "\(Self.seconds(pause))",
            ])
            do {
                try await sleep(pause)
            } catch {
                throw StorageError(.unavailable, "PostgreSQL at \(server) \(failure.reason) (start-up cancelled)", underlying: failure.error)
            }
            pause = min(pause * 2, .seconds(5))
        }
    }

    var server: String { PostgresLedgerStore.server(configuration) }

    struct Failure {
        let reason: String
        /// Whether waiting may help: the server may come up, finish starting, or free a connection.
        let mayPass: Bool
        let error: any Error
    }

    /// What went wrong, in words, and whether it may pass. PostgreSQL's own answer is quoted with its
    /// SQLSTATE; refusals of the role, the password or the database (classes 28 and 3D) don't pass,
    /// nor does an authentication method the client can't answer, a server without the TLS the URL
    /// requires, or a certificate that fails the check.
    static func failure(_ error: any Error) -> Failure {
        guard let error = error as? PSQLError else {
            return Failure(reason: "can't be reached: \(String(describing: error))", mayPass: true, error: error)
        }
        if let info = error.serverInfo {
            let state = info[.sqlState] ?? "?"
            let message = info[.message] ?? "no message"
            let lasting = state.hasPrefix("28") || state.hasPrefix("3D")
            return Failure(reason: "refused the connection: \(message) (SQLSTATE \(state))", mayPass: !lasting, error: error)
        }
        switch error.code {
        case .unsupportedAuthMechanism, .authMechanismRequiresPassword, .saslError:
            return Failure(reason: "asks for an authentication this connection can't give (\(error.code); is the password in the URL?)", mayPass: false, error: error)
        case .sslUnsupported:
            return Failure(reason: "does not offer TLS, which the URL's sslmode requires", mayPass: false, error: error)
        case .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
            return Failure(reason: "failed to set up TLS (\(error.code))", mayPass: false, error: error)
        case _ where error.underlying is NIOSSLError || error.underlying is NIOSSLExtraError || error.underlying is BoringSSLError:
            return Failure(reason: "failed the TLS handshake: \(String(describing: error.underlying!))", mayPass: false, error: error)
        default:
            let cause = error.underlying.map { String(describing: $0) } ?? "\(error.code)"
            return Failure(reason: "can't be reached: \(cause)", mayPass: true, error: error)
        }
    }

    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) + Double(attoseconds) / 1e18
        return value.formatted(.number.precision(.fractionLength(0...1))) + " s"
    }
}
