#if !canImport(StoreKit)
import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Product {
    /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo
    /// `struct SubscriptionInfo` — `Hashable`, `Sendable`.
    public struct SubscriptionInfo: Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptiongroupid
        public let subscriptionGroupID: String
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/subscriptionperiod
        public let subscriptionPeriod: Product.SubscriptionPeriod
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/introductoryoffer
        public let introductoryOffer: Product.SubscriptionOffer?
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/promotionaloffers
        public let promotionalOffers: [Product.SubscriptionOffer]
        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/winbackoffers — iOS 18.0.
        @available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
        public var winBackOffers: [Product.SubscriptionOffer] { winBack }
        private let winBack: [Product.SubscriptionOffer]

        /// The mirror's own (StoreKit makes these itself).
        public init(
            subscriptionGroupID: String, subscriptionPeriod: Product.SubscriptionPeriod, introductoryOffer: Product.SubscriptionOffer? = nil,
            promotionalOffers: [Product.SubscriptionOffer] = [], winBackOffers: [Product.SubscriptionOffer] = []
        ) {
            self.subscriptionGroupID = subscriptionGroupID
            self.subscriptionPeriod = subscriptionPeriod
            self.introductoryOffer = introductoryOffer
            self.promotionalOffers = promotionalOffers
            self.winBack = winBackOffers
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/iseligibleforintrooffer
        /// `var isEligibleForIntroOffer: Bool { get async }`
        public var isEligibleForIntroOffer: Bool {
            get async { await Self.isEligibleForIntroOffer(for: subscriptionGroupID) }
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/iseligibleforintrooffer(for:)
        /// `static func isEligibleForIntroOffer(for groupID: String) async -> Bool`
        public static func isEligibleForIntroOffer(for groupID: String) async -> Bool {
            await StoreKitMirrorRuntime.backendIfInstalled?.isEligibleForIntroOffer(groupID: groupID) ?? false
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.property
        /// `var status: [Product.SubscriptionInfo.Status] { get async throws }`
        public var status: [Product.SubscriptionInfo.Status] {
            get async throws { try await Self.status(for: subscriptionGroupID) }
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status(for:)
        /// `static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status]`
        public static func status(for groupID: String) async throws -> [Product.SubscriptionInfo.Status] {
            try await StoreKitMirrorRuntime.backend().subscriptionStatuses(groupID: groupID).compactMap { status in
                guard let transaction = VerificationResult<Transaction>(status.transaction), let renewal = RenewalInfo(jws: status.renewalInfo)
                else { return nil }
                return Status(state: status.state, transaction: transaction, renewalInfo: .verified(renewal))
            }
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct
        public struct Status: Sendable {
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/state
            public let state: Product.SubscriptionInfo.RenewalState
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/transaction
            public let transaction: VerificationResult<Transaction>
            /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/status-swift.struct/renewalinfo
            public let renewalInfo: VerificationResult<Product.SubscriptionInfo.RenewalInfo>
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptioninfo/renewalstate
        public struct RenewalState: RawRepresentable, Hashable, Sendable {
            public let rawValue: Int
            public init(rawValue: Int) { self.rawValue = rawValue }
            public static let subscribed = RenewalState(rawValue: 1)
            public static let expired = RenewalState(rawValue: 2)
            public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
            public static let inGracePeriod = RenewalState(rawValue: 4)
            public static let revoked = RenewalState(rawValue: 5)
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod
    public struct SubscriptionPeriod: Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptionperiod/unit-swift.enum
        public enum Unit: Hashable, Sendable {
            case day, week, month, year
        }

        public let unit: Product.SubscriptionPeriod.Unit
        public let value: Int

        /// The mirror's own.
        public init(value: Int, unit: Product.SubscriptionPeriod.Unit) {
            self.value = value
            self.unit = unit
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer
    /// `struct SubscriptionOffer` — `Hashable`, `Sendable`.
    public struct SubscriptionOffer: Hashable, Sendable {
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/id — `nil` for an introductory offer.
        public let id: String?
        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/type
        public let type: Product.SubscriptionOffer.OfferType
        public let price: Decimal
        public let displayPrice: String
        public let period: Product.SubscriptionPeriod
        public let periodCount: Int
        public let paymentMode: Product.SubscriptionOffer.PaymentMode

        /// The mirror's own.
        public init(
            id: String?, type: Product.SubscriptionOffer.OfferType, price: Decimal, displayPrice: String, period: Product.SubscriptionPeriod, periodCount: Int,
            paymentMode: Product.SubscriptionOffer.PaymentMode
        ) {
            self.id = id
            self.type = type
            self.price = price
            self.displayPrice = displayPrice
            self.period = period
            self.periodCount = periodCount
            self.paymentMode = paymentMode
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/offertype
        public struct OfferType: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let introductory = OfferType(rawValue: "introductory")
            public static let promotional = OfferType(rawValue: "promotional")
            /// iOS 18.0.
            public static let winBack = OfferType(rawValue: "winBack")
        }

        /// https://developer.apple.com/documentation/storekit/product/subscriptionoffer/paymentmode-swift.struct
        public struct PaymentMode: RawRepresentable, Hashable, Sendable {
            public let rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let freeTrial = PaymentMode(rawValue: "freeTrial")
            public static let payAsYouGo = PaymentMode(rawValue: "payAsYouGo")
            public static let payUpFront = PaymentMode(rawValue: "payUpFront")
        }
    }
}
#endif
