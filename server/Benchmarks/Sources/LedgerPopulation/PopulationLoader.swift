import EntitleCore
import EntitleStorage
import Foundation
import Synchronization

/// Appends subscribers of a ``SignedPopulation`` to a ledger through its batch append
/// (``EventLog/append(contentsOf:)``): `workers` tasks each sign a batch of `batch` subscribers and
/// append it (one transaction per app of the batch), so signing and appends overlap.
public enum PopulationLoader {
    public struct Result: Sendable {
        public var subscribers = 0
        public var events = 0
        public var appended = 0
        public var signed = 0
        public var signedBytes = 0
        /// Seconds of the workers' time spent making and signing events, and appending them.
        public var signing = 0.0
        public var appending = 0.0
        /// Wall-clock seconds.
        public var seconds = 0.0

        mutating func add(_ other: Result) {
            subscribers += other.subscribers
            events += other.events
            appended += other.appended
            signed += other.signed
            signedBytes += other.signedBytes
            signing += other.signing
            appending += other.appending
        }
    }

    /// Subscribers `range` of `population` into `root`'s apps (their stores migrated first).
    public static func load(
        _ population: SignedPopulation, subscribers range: Range<Int>, into root: any LedgerStore, workers: Int = 4, batch: Int = 50,
        progress: (@Sendable (Int) -> Void)? = nil
    ) async throws -> Result {
        let stores = Dictionary(uniqueKeysWithValues: SignedPopulation.apps.map { ($0.bundleID, root.forApp(BundleID($0.bundleID))) })
        for store in stores.values { try await store.migrate() }
        let tally = Tally()
        let clock = ContinuousClock()
        let batches = (range.count + batch - 1) / batch
        let started = clock.now
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<max(1, workers) {
                group.addTask {
                    for number in stride(from: worker, to: batches, by: max(1, workers)) {
                        var part = Result()
                        let signingStarted = clock.now
                        let first = range.lowerBound + number * batch
                        var byApp: [String: [LedgerEvent]] = [:]
                        for index in first..<min(range.upperBound, first + batch) {
                            for subscriber in population.subscribers(index) {
                                part.subscribers += 1
                                part.events += subscriber.events.count
                                part.signed += subscriber.events.count { $0.rawSignedPayload != nil }
                                part.signedBytes += subscriber.signedBytes
                                byApp[subscriber.app.bundleID, default: []].append(contentsOf: subscriber.events)
                            }
                        }
                        part.signing = seconds(clock.now - signingStarted)
                        let appendStarted = clock.now
                        for (app, events) in byApp.sorted(by: { $0.key < $1.key }) {
                            guard let store = stores[app] else { continue }
                            part.appended += try await store.append(contentsOf: events).count { if case .appended = $0 { true } else { false } }
                        }
                        part.appending = seconds(clock.now - appendStarted)
                        tally.total.withLock { $0.add(part) }
                        progress?(tally.done.add(1, ordering: .relaxed).newValue * 100 / max(1, batches))
                    }
                }
            }
            try await group.waitForAll()
        }
        var result = tally.total.withLock { $0 }
        result.seconds = seconds(clock.now - started)
        return result
    }

    private final class Tally: Sendable {
        let total = Mutex(Result())
        let done = Atomic<Int>(0)
    }

    public static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
