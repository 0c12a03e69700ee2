#if !canImport(StoreKit)
import Foundation

/// https://developer.apple.com/documentation/storekit/product
/// `struct Product` — iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0; `Identifiable`,
/// `Hashable`, `Sendable`.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Product: Identifiable, Hashable, Sendable {
    /// https://developer.apple.com/documentation/storekit/product/id
    public let id: String
    /// https://developer.apple.com/documentation/storekit/product/type
    public let type: Product.ProductType
    /// https://developer.apple.com/documentation/storekit/product/displayname
    public let displayName: String
    /// https://developer.apple.com/documentation/storekit/product/description
    public let description: String
    /// https://developer.apple.com/documentation/storekit/product/price
    public let price: Decimal
    /// https://developer.apple.com/documentation/storekit/product/displayprice
    public let displayPrice: String
    /// https://developer.apple.com/documentation/storekit/product/isfamilyshareable
    public let isFamilyShareable: Bool
    /// https://developer.apple.com/documentation/storekit/product/subscription
    public let subscription: Product.SubscriptionInfo?

    /// The mirror's own (StoreKit makes products itself): a product as the backend's store shows it.
    public init(
        id: String, type: Product.ProductType, displayName: String, description: String = "", price: Decimal, displayPrice: String,
        isFamilyShareable: Bool = false, subscription: Product.SubscriptionInfo? = nil
    ) {
        self.id = id
        self.type = type
        self.displayName = displayName
        self.description = description
        self.price = price
        self.displayPrice = displayPrice
        self.isFamilyShareable = isFamilyShareable
        self.subscription = subscription
    }

    /// https://developer.apple.com/documentation/storekit/product/products(for:)
    /// `static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product] where Identifiers: Collection, Identifiers.Element == String`
    public static func products<Identifiers>(for identifiers: Identifiers) async throws -> [Product]
    where Identifiers: Collection, Identifiers.Element == String {
        try await StoreKitMirrorRuntime.backend().products(for: Array(identifiers))
    }

    /// https://developer.apple.com/documentation/storekit/product/purchase(options:)
    /// `@MainActor func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult`
    /// — iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0 (not visionOS).
    @available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, *)
    @available(visionOS, unavailable)
    @MainActor
    public func purchase(options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try await Self.result(of: StoreKitMirrorRuntime.backend().purchase(self, options: options))
    }

    /// https://developer.apple.com/documentation/storekit/product/purchase(confirmin:options:)-6dj6y
    /// `@MainActor func purchase(confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult`
    /// — iOS 17.0, Mac Catalyst 17.0, tvOS 17.0, visionOS 1.0.
    @available(iOS 17.0, tvOS 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public func purchase(confirmIn scene: some UIScene, options: Set<Product.PurchaseOption> = []) async throws -> Product.PurchaseResult {
        try await Self.result(of: StoreKitMirrorRuntime.backend().purchase(self, options: options))
    }

    private static func result(of purchase: StoreKitMirrorPurchase) throws -> Product.PurchaseResult {
        switch purchase {
        case .pending: return .pending
        case .userCancelled: return .userCancelled
        case .signed(let signed):
            // StoreKit could not read what the store signed: not a transaction it can hand over.
            guard let verification = VerificationResult<Transaction>(signed) else { throw StoreKitError.unknown }
            return .success(verification)
        }
    }

    /// https://developer.apple.com/documentation/storekit/product/producttype
    public struct ProductType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let consumable = ProductType(rawValue: "Consumable")
        public static let nonConsumable = ProductType(rawValue: "Non-Consumable")
        public static let nonRenewable = ProductType(rawValue: "Non-Renewing Subscription")
        public static let autoRenewable = ProductType(rawValue: "Auto-Renewable Subscription")
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseresult
    /// `enum PurchaseResult`
    public enum PurchaseResult: Sendable {
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/success(_:)
        case success(VerificationResult<Transaction>)
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/usercancelled
        case userCancelled
        /// https://developer.apple.com/documentation/storekit/product/purchaseresult/pending
        case pending
    }

    /// https://developer.apple.com/documentation/storekit/product/purchaseerror
    /// `enum PurchaseError: Error`
    public enum PurchaseError: Error, Sendable, Hashable {
        case invalidQuantity
        case productUnavailable
        case purchaseNotAllowed
        case ineligibleForOffer
        case invalidOfferIdentifier
        case invalidOfferPrice
        case invalidOfferSignature
        case missingOfferParameters
    }
}
#endif
