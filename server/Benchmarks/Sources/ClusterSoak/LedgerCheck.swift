import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// What the ledger holds of the soak: every event appended after ``markStart()``, read through a
/// ledger consumer of its own (a durable cursor per app, as the server's consumers read).
struct LedgerCheck {
    struct Found {
        var events = 0
        var notifications: Set<String> = []
        /// Notifications appended by a reconciliation pass (Apple's history), not the webhook.
        var reconciled = 0
        var usage: Set<String> = []
    }

    let database: LedgerDatabase
    let logger: Logger
    let apps: [String]
    let consumer = LedgerConsumer(rawValue: "cluster-soak-\(UUID().uuidString.lowercased())")

    /// Places the consumer at each app's head.
    func markStart() async throws {
        try await LedgerConnection.with(database, logger: logger) { root in
            for app in apps { _ = try await root.forApp(BundleID(app)).consumerEvents(consumer, limit: 1, since: .distantFuture) }
        }
    }

    func collect() async throws -> Found {
        try await LedgerConnection.with(database, logger: logger) { root in
            var found = Found()
            for app in apps {
                let store = root.forApp(BundleID(app))
                while true {
                    let page = try await store.consumerEvents(consumer, limit: 1_000, since: .distantFuture)
                    guard let last = page.events.last else { break }
                    for (_, event) in page.events {
                        found.events += 1
                        if let uuid = event.notificationUUID {
                            found.notifications.insert(uuid.lowercased())
                            if event.source == .appStoreServerAPI { found.reconciled += 1 }
                        }
                        if event.source == .usage { found.usage.insert(event.idempotencyKey) }
                    }
                    _ = try await store.advanceConsumer(consumer, from: page.position, to: last.sequence)
                }
            }
            return found
        }
    }
}
