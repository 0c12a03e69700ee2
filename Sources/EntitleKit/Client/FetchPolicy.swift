import Foundation

/// Where ``Entitle/customerInfo(fetchPolicy:)`` may get its answer.
public enum FetchPolicy: Sendable {
    /// The trusted cache when there is one, else the server.
    case cachedOrFetched
    /// The server; the trusted cache only when the server can't be reached.
    case fetchCurrent
    /// The trusted cache when it is younger than the age given, else the server.
    case notStaleCachedOrFetched(maximumAge: TimeInterval)
    /// The trusted cache only, never the network.
    case cacheOnly
}
