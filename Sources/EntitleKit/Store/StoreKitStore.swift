#if canImport(StoreKit)
import EntitleWire
import Foundation
import StoreKit

/// The App Store through StoreKit 2, for apps on Apple platforms. Thin on purpose: it passes Apple's
/// signed transactions (`jwsRepresentation`) to EntitleKit and never judges them; the server verifies.
/// A promotional offer goes to StoreKit with the signature the server made for it.
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
public struct StoreKitStore: PurchaseStore {
    public init() {}

    public func products(_ ids: [String]) async throws(StoreFailure) -> [StoreProduct] {
        do {
            return try await Product.products(for: ids).map { StoreProduct(id: $0.id, displayName: $0.displayName, displayPrice: $0.displayPrice) }
        } catch {
            throw StoreFailure(.storeUnavailable, "the App Store could not be asked for products: \(error)")
        }
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
        var purchaseOptions: Set<Product.PurchaseOption> = []
        if let token = options.appAccountToken { purchaseOptions.insert(.appAccountToken(token)) }
        if let offer = options.promotionalOffer {
            guard let signature = Data(base64Encoded: offer.signature) else {
                throw StoreFailure(.verificationFailed, "the promotional offer's signature is not base64")
            }
            purchaseOptions.insert(
                .promotionalOffer(offerID: offer.offerID, keyID: offer.keyID, nonce: offer.nonce, signature: signature, timestamp: Int(offer.timestamp)))
        }
        if let eligibility = options.introductoryOfferEligibility, #available(iOS 18.4, macOS 15.4, tvOS 18.4, watchOS 11.4, visionOS 2.4, *) {
            purchaseOptions.insert(.introductoryOfferEligibility(compactJWS: eligibility))
        }
        let result: Product.PurchaseResult
        do {
            result = try await product.purchase(options: purchaseOptions)
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

    private static func failure(_ error: any Error) -> StoreFailure {
        if let error = error as? Product.PurchaseError {
            switch error {
            case .productUnavailable: return StoreFailure(.productUnavailable, "\(error)")
            case .purchaseNotAllowed: return StoreFailure(.notAllowed, "\(error)")
            default: return StoreFailure(.storeUnavailable, "\(error)")
            }
        }
        if let error = error as? StoreKitError, case .notAvailableInStorefront = error {
            return StoreFailure(.productUnavailable, "\(error)")
        }
        return StoreFailure(.storeUnavailable, "\(error)")
    }
}
#endif
