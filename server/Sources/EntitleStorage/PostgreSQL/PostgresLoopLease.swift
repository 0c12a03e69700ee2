import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Connections for reads, kept apart for each event loop of a group: a read from a task running on
/// one of those loops (an HTTP request handled on its connection's loop, through
/// ``EventLoopExecutor``) leases one of that loop's connections, so the statement is written, its
/// answer read and the task resumed on one thread, without waking another. Reads from anywhere else
/// use the pool.
///
/// Each loop keeps up to `perLoop` connections, opened when a read first needs them or all at once by
/// ``openAll(preparing:)`` (the server does so before it listens, so its first reads wait neither for
/// PostgreSQL to start their backends nor for their statements to be parsed and planned). A read
/// that finds them all in use waits for one, first come first served. A connection found closed
/// (PostgreSQL restarted, the backend was terminated) is let go and another opened in its place. Run
/// as a service: at graceful shutdown (or cancellation) it closes its idle connections, and each one
/// in use when it is handed back.
public final class PostgresLoopLease: Service, Sendable {
    /// Thrown to a read that asks after the lease closed.
    public struct Closed: Error, CustomStringConvertible {
        public var description: String { "the PostgreSQL connections of the event loops are closed" }
    }

    /// One loop's connections.
    final class Slot: Sendable {
        struct State {
            var idle: [PostgresConnection] = []
            /// Connections open or being opened.
            var opened = 0
            /// Reads waiting: handed a connection, or nil to open one themselves.
            var waiters: [CheckedContinuation<PostgresConnection?, any Error>] = []
            var closed = false

            /// Counts one more connection as being opened, if fewer than `perLoop` are.
            mutating func reserve(upTo perLoop: Int) -> Bool {
                guard opened < perLoop else { return false }
                opened += 1
                return true
            }
        }

        let loop: any EventLoop
        let state = NIOLockedValueBox(State())

        init(loop: any EventLoop) {
            self.loop = loop
        }
    }

    /// How a read gets its connection.
    enum Grant {
        case idle(PostgresConnection)
        case open
        case wait
        case closed
    }

    let configuration: PostgresConnection.Configuration
    public let perLoop: Int
    private let slots: [ObjectIdentifier: Slot]
    private let prepare: (@Sendable (PostgresConnection) async throws -> Void)?
    private let logger: Logger
    private let nextID = Atomic<Int>(1)

    /// - Parameters:
    ///   - configuration: how each connection connects.
    ///   - group: the loops to keep connections for (the HTTP server's).
    ///   - perLoop: the most connections one loop opens (at least 1).
    ///   - prepare: run by ``openAll(preparing:)`` on each connection it opens, before a read gets it
    ///     (the ledger prepares its reads' statements).
    public init(
        configuration: PostgresConnection.Configuration, group: any EventLoopGroup, perLoop: Int,
        prepare: (@Sendable (PostgresConnection) async throws -> Void)? = nil, logger: Logger
    ) {
        self.configuration = configuration
        self.perLoop = max(1, perLoop)
        self.prepare = prepare
        self.logger = logger
        var slots: [ObjectIdentifier: Slot] = [:]
        for loop in group.makeIterator() {
            slots[ObjectIdentifier(loop as AnyObject)] = Slot(loop: loop)
        }
        self.slots = slots
    }

    /// How many loops the lease keeps connections for.
    public var loops: Int { slots.count }

    /// The slot of the loop the calling task runs on, if it is one of the group's.
    func currentSlot() -> Slot? {
        guard let loop = MultiThreadedEventLoopGroup.currentEventLoop else { return nil }
        return slots[ObjectIdentifier(loop as AnyObject)]
    }

    /// Whether a read from here would lease a loop's connection.
    public var servesCurrentLoop: Bool { currentSlot() != nil }

    /// Runs `body` with one of the current loop's connections, or returns nil without running it when
    /// the calling task doesn't run on one of the group's loops.
    public func withCurrentLoopConnection<T>(_ body: (PostgresConnection) async throws -> T) async throws -> T? {
        guard let slot = currentSlot() else { return nil }
        return try await withConnection(on: slot, body)
    }

    /// Runs `body` with one of `slot`'s connections (the calling task's loop's, ``currentSlot()``). When
    /// the server ended the connection under it (PostgreSQL restarted, failed over, or the backend was
    /// terminated) before the connection could be known closed, `body` runs once more on another: the
    /// lease serves reads, which change nothing.
    func withConnection<T>(on slot: Slot, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        do {
            return try await once(on: slot, body)
        } catch where Self.serverEnded(error) {
            return try await once(on: slot, body)
        }
    }

    private func once<T>(on slot: Slot, _ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await acquire(slot)
        do {
            let result = try await body(connection)
            release(connection, to: slot)
            return result
        } catch {
            // Closed now, so it is let go rather than kept.
            if Self.serverEnded(error) { try? await connection.close() }
            release(connection, to: slot)
            throw error
        }
    }

    /// Whether `error` (PostgresNIO's, or a ``StorageError`` carrying it) says the server ended the
    /// connection: it closed it, or ended its backend (SQLSTATE 57P01–57P05: an operator's
    /// `pg_terminate_backend`, a shutdown, a crash).
    static func serverEnded(_ error: any Error) -> Bool {
        guard let error = (error as? PSQLError) ?? ((error as? StorageError)?.underlying as? PSQLError) else { return false }
        if error.code == .serverClosedConnection || error.code == .uncleanShutdown { return true }
        return error.serverInfo?[.sqlState]?.hasPrefix("57P") == true
    }

    /// A connection of `slot`'s loop: an idle one, a new one, or the next one handed back.
    private func acquire(_ slot: Slot) async throws -> PostgresConnection {
        while true {
            let grant: Grant = slot.state.withLockedValue { state in
                if state.closed { return .closed }
                if let connection = state.idle.popLast() { return .idle(connection) }
                if state.reserve(upTo: perLoop) { return .open }
                return .wait
            }
            switch grant {
            case .closed:
                throw Closed()
            case .idle(let connection):
                if connection.isClosed {
                    letGo(connection, from: slot)
                    continue
                }
                return connection
            case .open:
                return try await open(on: slot)
            case .wait:
                let handed: PostgresConnection? = try await withCheckedThrowingContinuation { continuation in
                    let now: Result<PostgresConnection?, any Error>? = slot.state.withLockedValue { state in
                        if state.closed { return .failure(Closed()) }
                        if let connection = state.idle.popLast() { return .success(connection) }
                        if state.reserve(upTo: perLoop) { return .success(nil) }
                        state.waiters.append(continuation)
                        return nil
                    }
                    if let now { continuation.resume(with: now) }
                }
                guard let handed else { return try await open(on: slot) }
                if handed.isClosed {
                    letGo(handed, from: slot)
                    continue
                }
                return handed
            }
        }
    }

    /// Opens a connection for `slot`, whose count already includes it.
    private func open(on slot: Slot) async throws -> PostgresConnection {
        do {
            let id = nextID.add(1, ordering: .relaxed).oldValue
            return try await PostgresConnection.connect(on: slot.loop, configuration: configuration, id: id, logger: logger)
        } catch {
            letGo(nil, from: slot)
            throw error
        }
    }

    /// Hands `connection` back: to the first waiting read, else to the idle ones; closed if the lease is.
    private func release(_ connection: PostgresConnection, to slot: Slot) {
        if connection.isClosed {
            letGo(connection, from: slot)
            return
        }
        enum Next {
            case hand(CheckedContinuation<PostgresConnection?, any Error>)
            case close
            case keep
        }
        let next: Next = slot.state.withLockedValue { state in
            if state.closed {
                state.opened -= 1
                return .close
            }
            if !state.waiters.isEmpty { return .hand(state.waiters.removeFirst()) }
            state.idle.append(connection)
            return .keep
        }
        switch next {
        case .hand(let waiter): waiter.resume(returning: connection)
        case .close: connection.close().whenComplete { _ in }
        case .keep: break
        }
    }

    /// Forgets a connection that closed (or one that failed to open): a waiting read may open another.
    private func letGo(_ connection: PostgresConnection?, from slot: Slot) {
        let waiter: CheckedContinuation<PostgresConnection?, any Error>? = slot.state.withLockedValue { state in
            guard !state.closed, !state.waiters.isEmpty else {
                state.opened -= 1
                return nil
            }
            // The waiter takes over the place of the connection let go.
            return state.waiters.removeFirst()
        }
        waiter?.resume(returning: nil)
        if let connection, !connection.isClosed { connection.close().whenComplete { _ in } }
    }

    /// Closes the idle connections, and each one in use as it comes back; reads asking from now on
    /// get ``Closed``.
    public func close() async {
        var idle: [PostgresConnection] = []
        for slot in slots.values {
            let (connections, waiters) = slot.state.withLockedValue { state in
                state.closed = true
                state.opened -= state.idle.count
                defer {
                    state.idle = []
                    state.waiters = []
                }
                return (state.idle, state.waiters)
            }
            idle += connections
            for waiter in waiters { waiter.resume(throwing: Closed()) }
        }
        for connection in idle { try? await connection.close() }
    }

    /// Waits for graceful shutdown or cancellation, then closes.
    public func run() async throws {
        try? await gracefulShutdown()
        await close()
    }

    /// Opens the connections each loop may keep and hasn't opened yet, all at once, and returns when
    /// each is open (handed to a waiting read, or kept idle) or has failed. Each is first given to
    /// `prepare` when `preparing` (false opens them only, to measure what preparing saves). One that
    /// fails to open or to prepare is logged, closed and left for a read to open when it needs one;
    /// after ``close()`` nothing is opened.
    public func openAll(preparing: Bool = true) async {
        let prepare = preparing ? prepare : nil
        await withTaskGroup(of: Void.self) { group in
            for slot in slots.values {
                while slot.state.withLockedValue({ !$0.closed && $0.reserve(upTo: perLoop) }) {
                    group.addTask {
                        let connection: PostgresConnection
                        do {
                            connection = try await self.open(on: slot)
                        } catch {
                            self.logger.notice("PostgreSQL: a read connection of an event loop could not be opened; a read will open it when it needs one", metadata: [
                                "reason": "\(PostgresStartupCheck.failure(error).reason)",
                            ])
                            return
                        }
                        do {
                            try await prepare?(connection)
                        } catch {
                            self.logger.notice("PostgreSQL: a read connection of an event loop could not prepare the reads; a read will open another when it needs one", metadata: [
                                "reason": "\(error)",
                            ])
                            try? await connection.close()
                            self.letGo(connection, from: slot)
                            return
                        }
                        self.release(connection, to: slot)
                    }
                }
            }
        }
    }

    /// Connections open or being opened, over every loop.
    public var openConnections: Int {
        slots.values.reduce(0) { total, slot in total + slot.state.withLockedValue { $0.opened } }
    }

    /// Connections open and not in use, over every loop.
    var idleConnections: Int {
        slots.values.reduce(0) { total, slot in total + slot.state.withLockedValue { $0.idle.count } }
    }
}
