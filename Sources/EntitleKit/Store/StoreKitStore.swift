#if canImport(StoreKit) || canImport(StoreKitMirror)
import Foundation
#if canImport(StoreKit)
import StoreKit
#else
// Linux: StoreKit 2's declarations as Apple documents them (the StoreKitMirror module), answered by a
// backend such as the local App Store. This file is the one adapter; nothing here is Linux-only.
import StoreKitMirror
#endif
#if canImport(UIKit)
import UIKit
#endif

/// The App Store through StoreKit 2, for apps on Apple platforms. Thin on purpose: it passes Apple's
/// signed transactions (`jwsRepresentation`) to EntitleKit and never judges them; the server verifies.
/// A promotional offer goes to StoreKit with the signature the server made for it, the introductory
/// offer with the server's signed word on eligibility, a win-back offer as StoreKit lists it.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public struct StoreKitStore: PurchaseStore {
    // Where StoreKit confirms in a scene: iOS, iPadOS, Mac Catalyst, tvOS, visionOS (not macOS or watchOS,
    // which have no UIScene), and Linux through StoreKitMirror.
    #if os(iOS) || os(tvOS) || os(visionOS) || !canImport(StoreKit)
    /// The scene StoreKit shows its purchase confirmation in (`purchase(confirmIn:options:)`), when the app
    /// has one (UIKit, several scenes, visionOS); `nil`: StoreKit picks (`purchase(options:)`).
    let confirmationScene: (@MainActor @Sendable () -> UIScene?)?

    /// - Parameter confirmationScene: the scene to confirm purchases in, asked at each purchase; needed on
    ///   visionOS, where `purchase(options:)` is unavailable.
    public init(confirmationScene: (@MainActor @Sendable () -> UIScene?)? = nil) {
        self.confirmationScene = confirmationScene
    }
    #else
    public init() {}
    #endif

    public func products(_ ids: [String]) async throws(StoreFailure) -> [StoreProduct] {
        let products: [Product]
        do {
            products = try await Product.products(for: ids)
        } catch {
            throw StoreFailure(.storeUnavailable, "the App Store could not be asked for products: \(error)")
        }
        // Eligibility is the group's: asked once per group.
        var eligibility: [String: Bool] = [:]
        var shown: [StoreProduct] = []
        for product in products {
            var item = StoreProduct(id: product.id, displayName: product.displayName, displayPrice: product.displayPrice)
            if let subscription = product.subscription, subscription.introductoryOffer != nil {
                let group = subscription.subscriptionGroupID
                if eligibility[group] == nil { eligibility[group] = await subscription.isEligibleForIntroOffer }
                item.isEligibleForIntroductoryOffer = eligibility[group]
            }
            shown.append(item)
        }
        return shown
    }

    public func purchase(_ productID: String, options: PurchaseOptions) async throws(StoreFailure) -> StorePurchaseResult {
        let product: Product
        do {
            guard let found = try await Product.products(for: [productID]).first else {
                throw StoreFailure(.productUnavailable, "\(productID) is not on sale in this storefront")
            }
            product = found
        } catch let failure as StoreFailure {
            throw failure
        } catch {
            throw StoreFailure(.storeUnavailable, "the App Store could not be asked for \(productID): \(error)")
        }
        let purchaseOptions = try Self.options(options, for: product)
        let result: Product.PurchaseResult
        do {
            result = try await buy(product, options: purchaseOptions)
        } catch {
            throw Self.failure(error)
        }
        switch result {
        case .success(let verification):
            return .purchased(Self.signed(verification))
        case .pending:
            return .pending
        case .userCancelled:
            return .cancelled
        @unknown default:
            return .cancelled
        }
    }

    /// StoreKit's options for what EntitleKit asks: the appAccountToken, the server-signed promotional
    /// offer (its compact JWS where the SDK has that form, else its signature), the win-back offer
    /// StoreKit lists for the product, the server's signed introductory-offer eligibility.
    static func options(_ options: PurchaseOptions, for product: Product) throws(StoreFailure) -> Set<Product.PurchaseOption> {
        var purchaseOptions: Set<Product.PurchaseOption> = []
        if let token = options.appAccountToken { purchaseOptions.insert(.appAccountToken(token)) }
        if let offer = options.promotionalOffer {
            #if compiler(>=6.2)
            // Xcode 26's SDK: the JWS form, back-deployed to iOS 15.
            if !offer.compactJWS.isEmpty {
                purchaseOptions.formUnion(Product.PurchaseOption.promotionalOffer(offer.offerID, compactJWS: offer.compactJWS))
            } else {
                purchaseOptions.insert(try legacyPromotionalOffer(offer))
            }
            #else
            purchaseOptions.insert(try legacyPromotionalOffer(offer))
            #endif
        }
        if let winBackOfferID = options.winBackOfferID {
            guard #available(iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) else {
                throw StoreFailure(.notAllowed, "win-back offers need iOS 18, macOS 15, tvOS 18, watchOS 11 or visionOS 2")
            }
            guard let offer = product.subscription?.winBackOffers.first(where: { $0.id == winBackOfferID }) else {
                throw StoreFailure(.productUnavailable, "\(product.id) has no win-back offer \(winBackOfferID) for this user")
            }
            purchaseOptions.insert(.winBackOffer(offer))
        }
        if let eligibility = options.introductoryOfferEligibility {
            purchaseOptions.insert(.introductoryOfferEligibility(compactJWS: eligibility))
        }
        return purchaseOptions
    }

    private static func legacyPromotionalOffer(_ offer: SignedPromotionalOffer) throws(StoreFailure) -> Product.PurchaseOption {
        guard let signature = Data(base64Encoded: offer.signature) else {
            throw StoreFailure(.verificationFailed, "the promotional offer's signature is not base64")
        }
        guard let timestamp = Int(exactly: offer.timestamp) else {
            throw StoreFailure(.verificationFailed, "the promotional offer's timestamp is out of range")
        }
        return .promotionalOffer(offerID: offer.offerID, keyID: offer.keyID, nonce: offer.nonce, signature: signature, timestamp: timestamp)
    }

    @MainActor
    private func buy(_ product: Product, options: Set<Product.PurchaseOption>) async throws -> Product.PurchaseResult {
        #if os(iOS) || os(tvOS) || os(visionOS) || !canImport(StoreKit)
        if let scene = confirmationScene?() { return try await product.purchase(confirmIn: scene, options: options) }
        #endif
        #if os(visionOS)
        throw StoreFailure(.storeUnavailable, "visionOS confirms purchases in a scene: give StoreKitStore one")
        #else
        return try await product.purchase(options: options)
        #endif
    }

    public func finish(_ transaction: SignedTransaction) async {
        for await verification in Transaction.unfinished where String(verification.unsafePayloadValue.id) == transaction.transactionID {
            await verification.unsafePayloadValue.finish()
        }
    }

    public func transactionUpdates() -> AsyncStream<SignedTransaction> {
        AsyncStream { continuation in
            let task = Task {
                for await verification in Transaction.unfinished { continuation.yield(Self.signed(verification)) }
                for await verification in Transaction.updates { continuation.yield(Self.signed(verification)) }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func currentEntitlements() async throws(StoreFailure) -> [SignedTransaction] {
        var signed: [SignedTransaction] = []
        for await verification in Transaction.currentEntitlements { signed.append(Self.signed(verification)) }
        return signed
    }

    public func allTransactions() async throws(StoreFailure) -> [SignedTransaction] {
        var signed: [SignedTransaction] = []
        for await verification in Transaction.all { signed.append(Self.signed(verification)) }
        return signed
    }

    public func sync() async throws(StoreFailure) {
        do {
            try await AppStore.sync()
        } catch {
            throw Self.failure(error)
        }
    }

    private static func signed(_ verification: VerificationResult<Transaction>) -> SignedTransaction {
        let transaction = verification.unsafePayloadValue
        return SignedTransaction(jws: verification.jwsRepresentation, transactionID: String(transaction.id), productID: transaction.productID)
    }

    static func failure(_ error: any Error) -> StoreFailure {
        if let failure = error as? StoreFailure { return failure }
        if let error = error as? Product.PurchaseError {
            switch error {
            case .productUnavailable: return StoreFailure(.productUnavailable, "\(error)")
            case .purchaseNotAllowed: return StoreFailure(.notAllowed, "\(error)")
            case .ineligibleForOffer, .invalidOfferIdentifier, .invalidOfferPrice, .invalidOfferSignature, .missingOfferParameters:
                return StoreFailure(.offerRefused, "\(error)")
            default: return StoreFailure(.storeUnavailable, "\(error)")
            }
        }
        if let error = error as? StoreKitError {
            switch error {
            case .notAvailableInStorefront: return StoreFailure(.productUnavailable, "\(error)")
            case .userCancelled: return StoreFailure(.cancelled, "\(error)")
            default: return StoreFailure(.storeUnavailable, "\(error)")
            }
        }
        return StoreFailure(.storeUnavailable, "\(error)")
    }
}
#endif
