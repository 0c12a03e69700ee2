import AppStoreModels
import EntitleWire

/// Where a subscriber's cells count: a real customer's, or a tester's (Apple's sandbox, Xcode or
/// StoreKit local testing).
///
/// A subscriber counts in ``sandbox`` when every transaction Apple signed for them came from a test
/// environment and there is at least one; everyone else counts in ``production``, including a
/// subscriber with no purchase yet (an app-managed trial, a paywall view), whose environment the ledger
/// can't know. A tester who buys for real once counts in production from then on.
public enum AnalyticsEnvironment: String, Hashable, Sendable, Codable, CaseIterable {
    case production
    case sandbox

    /// The environment of transactions signed in `environments` (each transaction's).
    public init<S: Sequence>(transactionEnvironments environments: S) where S.Element == AppStoreModels.Environment? {
        var sawTest = false
        for environment in environments {
            switch Self.of(environment) {
            case .production?: self = .production; return
            case .sandbox?: sawTest = true
            case nil: break
            }
        }
        self = sawTest ? .sandbox : .production
    }

    /// The environment a transaction signed in `environment` is evidence of: `nil` for none, or one
    /// Apple adds later.
    public static func of(_ environment: AppStoreModels.Environment?) -> AnalyticsEnvironment? {
        switch environment {
        case .production?: .production
        case .sandbox?, .xcode?, .localTesting?: .sandbox
        default: nil
        }
    }

    /// Whether a report scoped to `scope` counts cells of this environment.
    public func isCounted(in scope: AnalyticsScope) -> Bool {
        switch scope {
        case .all: true
        case .production: self == .production
        case .sandbox: self == .sandbox
        }
    }

    /// The prefix of a stored metric name for this environment's cells (none for production, so rows
    /// written before environments existed read as production).
    var storagePrefix: String {
        switch self {
        case .production: ""
        case .sandbox: "sandbox:"
        }
    }
}
