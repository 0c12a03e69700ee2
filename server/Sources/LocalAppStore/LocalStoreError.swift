/// Why the local App Store could not do what was asked. Equality is by code.
public struct LocalStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The certificate authority's folder can't be read or written.
        public static let storage = Code(rawValue: "localStore.storage")
        /// A stored certificate or key doesn't parse, or the three don't form a chain.
        public static let corruptAuthority = Code(rawValue: "localStore.corruptAuthority")
        /// A certificate or signature could not be made.
        public static let signing = Code(rawValue: "localStore.signing")
        /// The product isn't in the catalog, or isn't the kind the operation needs.
        public static let unknownProduct = Code(rawValue: "localStore.unknownProduct")
        /// No subscription has this originalTransactionId.
        public static let unknownSubscription = Code(rawValue: "localStore.unknownSubscription")
        /// The operation doesn't apply to the subscription's current state (e.g. renewing a revoked one).
        public static let invalidTransition = Code(rawValue: "localStore.invalidTransition")
        /// What the app's server signed for a purchase (a promotional offer, introductory-offer eligibility)
        /// is not what Apple accepts: an unknown key, a bad signature, another app or product, too old.
        public static let offerRefused = Code(rawValue: "localStore.offerRefused")
        /// A notification was never acknowledged with 2xx, after every retry.
        public static let deliveryFailed = Code(rawValue: "localStore.deliveryFailed")
        /// The run was stopped (Ctrl-C, shutdown) before it ended.
        public static let cancelled = Code(rawValue: "localStore.cancelled")
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
