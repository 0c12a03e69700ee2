import AppStoreServerAPI
import AppStoreVerification
import EntitleStorage
import Foundation

/// Why the service refused a request: a stable code, a message for the caller, and the error that
/// caused it. Equality is by code.
///
/// The service knows nothing of HTTP: the HTTP edge maps each code to a status
/// (``HTTPStatusTable``). Verification and storage failures keep their own codes, and whether a retry
/// may succeed is a property of the code.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The request is not what the operation takes (a field out of range, a bad date, …).
        public static let invalidRequest = Code(rawValue: "request.invalid")
        /// The body is larger than the server accepts.
        public static let bodyTooLarge = Code(rawValue: "request.bodyTooLarge")
        /// No such route or resource.
        public static let notFound = Code(rawValue: "request.notFound")
        /// The route exists, not with this method.
        public static let methodNotAllowed = Code(rawValue: "request.methodNotAllowed")
        /// The body is not in a media type the route reads.
        public static let unsupportedMediaType = Code(rawValue: "request.unsupportedMediaType")
        /// The request names no app this server serves, or names none when it serves several.
        public static let unknownApp = Code(rawValue: "request.unknownApp")
        /// No API key was sent.
        public static let missingAPIKey = Code(rawValue: "auth.missingKey")
        /// The API key is not one of this server's.
        public static let invalidAPIKey = Code(rawValue: "auth.invalidKey")
        /// The API key is valid but may not do this.
        public static let forbidden = Code(rawValue: "auth.forbidden")
        /// The key is another app's than the one the request names (its `Entitle-App` header).
        public static let keyOfAnotherApp = Code(rawValue: "auth.keyOfAnotherApp")
        /// The key may reach this user only with a log-in token from the app's backend (docs/identity.md).
        public static let logInTokenRequired = Code(rawValue: "auth.logInTokenRequired")
        /// The log-in token is malformed, not signed by the app's backend, expired, or for another app or user.
        public static let invalidLogInToken = Code(rawValue: "auth.invalidLogInToken")
        /// An app user ID outside the documented length and characters.
        public static let invalidAppUserID = Code(rawValue: "subscriber.invalidAppUserID")
        /// The restore policy keeps the purchase with the subscriber who owns it.
        public static let purchaseOwnedByAnotherSubscriber = Code(rawValue: "purchase.ownedByAnotherSubscriber")
        /// The product is not in the app's catalog.
        public static let unknownProduct = Code(rawValue: "purchase.unknownProduct")
        /// The anonymous subscriber already logged in as another subscriber.
        public static let alreadyMerged = Code(rawValue: "subscriber.alreadyMerged")
        /// The appAccountToken is registered for another subscriber.
        public static let accountTokenTaken = Code(rawValue: "subscriber.appAccountTokenTaken")
        /// A paywall event (or its report) breaks the documented rules.
        public static let invalidPaywallEvent = Code(rawValue: "paywall.invalidEvent")
        /// A paywall event names an offering the app doesn't have.
        public static let unknownOffering = Code(rawValue: "paywall.unknownOffering")
        /// No experiment has that ID.
        public static let experimentNotFound = Code(rawValue: "experiment.notFound")
        /// The experiment breaks the documented rules (``Experiment/problem(in:)``).
        public static let invalidExperiment = Code(rawValue: "experiment.invalid")
        /// An experiment with that ID exists.
        public static let experimentExists = Code(rawValue: "experiment.exists")
        /// The experiment's state doesn't allow the change (a stopped one can't start again).
        public static let experimentTransition = Code(rawValue: "experiment.invalidTransition")
        /// The limit is not in the app's catalog.
        public static let unknownLimit = Code(rawValue: "items.unknownLimit")
        /// No item with that ID is registered under the limit.
        public static let itemNotFound = Code(rawValue: "items.notFound")
        /// The feature is not in the app's catalog.
        public static let unknownFeature = Code(rawValue: "usage.unknownFeature")
        /// The feature exists but has no quota to count usage against.
        public static let notMetered = Code(rawValue: "usage.notMetered")
        /// Recording the usage would exceed the quota.
        public static let quotaExhausted = Code(rawValue: "usage.quotaExhausted")
        /// The app has no App Store Server API key configured (`--app-store-key`), which the operation needs.
        public static let appStoreNotConfigured = Code(rawValue: "appStore.notConfigured")
        /// The App Store doesn't know the transaction (or order) asked about.
        public static let appStoreNotFound = Code(rawValue: "appStore.notFound")
        /// The App Store can't be reached, rate-limits, or fails for now; a retry may succeed.
        public static let appStoreUnavailable = Code(rawValue: "appStore.unavailable")
        /// The App Store refused the request (its error code is in the message) or answered what didn't verify.
        public static let appStoreRefused = Code(rawValue: "appStore.refused")
        /// Apple refused because of the purchase's own state (its 403s: a subscription not eligible for
        /// a renewal extension, one extended to the maximum already…): the caller's to know, not a gateway's failure.
        public static let appStoreIneligible = Code(rawValue: "appStore.ineligible")
        /// The promotional offer is not one of the product's in the app's catalog.
        public static let unknownOffer = Code(rawValue: "offer.unknown")
        /// The subscriber is not eligible for the promotional offer under the catalog's rule.
        public static let offerNotEligible = Code(rawValue: "offer.notEligible")
        /// A dashboard sign-in with a wrong email or password (which of the two is not said).
        public static let signInRefused = Code(rawValue: "auth.signInRefused")
        /// A passkey's answer that doesn't sign in (the message says why: origin, challenge, signature, counter).
        public static let passkeyRefused = Code(rawValue: "auth.passkeyRefused")
        /// Too many failed sign-ins in a row: the account refuses sign-in for a while (the message says until when).
        public static let signInLocked = Code(rawValue: "auth.signInLocked")
        /// An invitation link that is unknown, used already or expired.
        public static let invitationClosed = Code(rawValue: "account.invitationClosed")
        /// The change would leave no active owner: invite or promote another owner first.
        public static let lastOwner = Code(rawValue: "account.lastOwner")
        /// Too many password checks at once on this instance: retry in a moment.
        public static let busy = Code(rawValue: "server.busy")
        /// A reconciliation pass stopped: another instance holds the lease it ran under (its own lapsed).
        public static let reconciliationLeaseLost = Code(rawValue: "reconciliation.leaseLost")
        /// Work stopped because the server is shutting down; the same request succeeds on a running server.
        public static let shuttingDown = Code(rawValue: "server.shuttingDown")
        /// Something failed that is no fault of the caller's; details are logged, never returned.
        public static let internalError = Code(rawValue: "server.internal")

        /// Whether the same request may succeed later: a verification or storage code says so
        /// itself; the service's own codes are final.
        public var isRetryable: Bool {
            if rawValue.hasPrefix("verification.") { return VerificationError.Code(rawValue: rawValue).isRetryable }
            if rawValue.hasPrefix("storage.") { return StorageError.Code(rawValue: rawValue).isRetryable }
            return self == .appStoreUnavailable || self == .shuttingDown
        }
    }

    public var code: Code
    public var message: String
    /// The error that caused this one, if any (never signed data itself).
    public var underlying: (any Error)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    /// A verification failure, with its own code and message.
    public init(_ error: VerificationError) {
        self.init(Code(rawValue: error.code.rawValue), error.message, underlying: error)
    }

    /// An App Store Server API failure: not found, for now (retryable), or refused.
    public init(_ error: AppStoreServerAPIError) {
        let code: Code =
            switch error.kind {
            case .apple where error.code == AppStoreServerAPIError.transactionIdNotFound || error.code == AppStoreServerAPIError.originalTransactionIdNotFound
                || error.status == 404:
                .appStoreNotFound
            case .invalidRequest: .invalidRequest
            case .apple where error.status == 403: .appStoreIneligible
            case _ where error.isRetryable: .appStoreUnavailable
            default: .appStoreRefused
            }
        self.init(code, "the App Store: \(error.description)", underlying: error)
    }

    /// A storage failure, with its own code; its message is never the caller's business.
    public init(_ error: StorageError) {
        self.init(Code(rawValue: error.code.rawValue), "the ledger is unavailable", underlying: error)
    }

    public var isRetryable: Bool { code.isRetryable }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: ServiceError, rhs: ServiceError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
