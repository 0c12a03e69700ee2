import NIOConcurrencyHelpers

/// Keeps one app's calls within Apple's rate limits, shared by every copy of its client (reconciliation's
/// concurrent status checks, look-ups, support tools): each endpoint and environment hands out a slot
/// every 1/rate seconds, and a 429's `Retry-After` holds the endpoint's slots until then. Pure in time:
/// the caller says what time it is and waits what it is told.
public final class RequestPacer: Sendable {
    struct Key: Hashable {
        var endpoint: APIEndpoint
        var sandbox: Bool
    }

    /// Requests per second for an endpoint and environment; Apple's published limits by default.
    let rate: @Sendable (APIEndpoint, Bool) -> Int
    private let next = NIOLockedValueBox<[Key: ContinuousClock.Instant]>([:])

    public init(rate: @escaping @Sendable (APIEndpoint, _ sandbox: Bool) -> Int = { $0.rate(sandbox: $1) }) {
        self.rate = rate
    }

    /// A pacer that hands out every slot at once, holds aside (a stand-in of Apple's that doesn't limit).
    public static func unpaced() -> RequestPacer { RequestPacer { _, _ in 0 } }

    /// Takes the next slot for `endpoint` and returns how long from `now` until it opens (zero when it is
    /// open now).
    public func reserve(_ endpoint: APIEndpoint, sandbox: Bool, now: ContinuousClock.Instant) -> Duration {
        let perSecond = rate(endpoint, sandbox)
        let key = Key(endpoint: endpoint, sandbox: sandbox)
        return next.withLockedValue { next in
            let slot = max(now, next[key] ?? now)
            if perSecond > 0 { next[key] = slot + .seconds(1) / perSecond }
            return slot - now
        }
    }

    /// Holds `endpoint`'s slots until `instant` (Apple's `Retry-After`); a later hold already set stays.
    public func hold(_ endpoint: APIEndpoint, sandbox: Bool, until instant: ContinuousClock.Instant) {
        let key = Key(endpoint: endpoint, sandbox: sandbox)
        next.withLockedValue { next in next[key] = max(next[key] ?? instant, instant) }
    }
}
