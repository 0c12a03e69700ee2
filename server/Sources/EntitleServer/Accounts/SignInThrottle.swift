import Foundation
import NIOConcurrencyHelpers

/// Failed sign-ins per client address, on this instance (docs/analytics.md, "Accounts"): after ``limit``
/// failures within ``window`` an address is refused every attempt — a password, a key, an invitation, a
/// passkey — until the window ends, before any password is hashed. It bounds one password sprayed over
/// many accounts, which each account's own lock doesn't see. Kept for at most ``capacity`` addresses.
final class SignInThrottle: Sendable {
    let limit: Int
    let window: TimeInterval
    static let capacity = 10_000
    private let failures = NIOLockedValueBox<[String: (count: Int, since: Date)]>([:])

    init(limit: Int = 20, window: TimeInterval = 600) {
        self.limit = limit
        self.window = window
    }

    /// Refuses `address` while it has used up its failures.
    func check(_ address: String, now: Date) throws(ServiceError) {
        let until: Date? = failures.withLockedValue { failures in
            guard let entry = failures[address] else { return nil }
            let end = entry.since.addingTimeInterval(window)
            guard now < end else {
                failures[address] = nil
                return nil
            }
            return entry.count >= limit ? end : nil
        }
        if let until {
            throw ServiceError(.signInLocked, "too many failed sign-ins from this address: try again after \(until.formatted(.iso8601))")
        }
    }

    /// Counts a failed attempt from `address`.
    func failed(_ address: String, now: Date) {
        failures.withLockedValue { failures in
            if let entry = failures[address], now < entry.since.addingTimeInterval(window) {
                failures[address] = (entry.count + 1, entry.since)
                return
            }
            if failures.count >= Self.capacity {
                // Full: the windows that ended go first, else the oldest.
                failures = failures.filter { now < $0.value.since.addingTimeInterval(window) }
                if failures.count >= Self.capacity, let oldest = failures.min(by: { $0.value.since < $1.value.since })?.key { failures[oldest] = nil }
            }
            failures[address] = (1, now)
        }
    }
}
