#if !canImport(StoreKit)
import AppStoreModels
import Foundation

/// https://developer.apple.com/documentation/storekit/transaction
/// `struct Transaction` — iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0; `Identifiable`,
/// `Hashable`, `Sendable`. Only the properties EntitleKit reads are mirrored.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public struct Transaction: Identifiable, Hashable, Sendable {
    /// https://developer.apple.com/documentation/storekit/transaction/id
    public let id: UInt64
    /// https://developer.apple.com/documentation/storekit/transaction/originalid
    public let originalID: UInt64
    /// https://developer.apple.com/documentation/storekit/transaction/productid
    public let productID: String
    /// https://developer.apple.com/documentation/storekit/transaction/subscriptiongroupid
    public let subscriptionGroupID: String?
    /// https://developer.apple.com/documentation/storekit/transaction/purchasedate
    public let purchaseDate: Date
    /// https://developer.apple.com/documentation/storekit/transaction/originalpurchasedate
    public let originalPurchaseDate: Date
    /// https://developer.apple.com/documentation/storekit/transaction/expirationdate
    public let expirationDate: Date?
    /// https://developer.apple.com/documentation/storekit/transaction/revocationdate
    public let revocationDate: Date?
    /// https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.property
    public let revocationReason: Transaction.RevocationReason?
    /// https://developer.apple.com/documentation/storekit/transaction/isupgraded
    public let isUpgraded: Bool
    /// https://developer.apple.com/documentation/storekit/transaction/appaccounttoken
    public let appAccountToken: UUID?
    /// https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.property
    public let ownershipType: Transaction.OwnershipType
    /// https://developer.apple.com/documentation/storekit/transaction/producttype
    public let productType: Product.ProductType
    /// https://developer.apple.com/documentation/storekit/transaction/signeddate
    public let signedDate: Date
    /// https://developer.apple.com/documentation/storekit/transaction/jsonrepresentation
    public let jsonRepresentation: Data
    /// The compact JWS this transaction was decoded from (`VerificationResult.jwsRepresentation`).
    let jws: String

    /// The mirror's own: a transaction decoded from the JWS the store signed; `nil` when StoreKit could
    /// not read it (not a JWS, not JSON, identifiers that aren't Apple's digits, no product or dates).
    init?(jws: String) {
        guard let (payload, json) = SignedPayload.decode(JWSTransactionDecodedPayload.self, from: jws),
            let id = SignedPayload.identifier(payload.transactionId),
            let originalID = SignedPayload.identifier(payload.originalTransactionId),
            let productID = payload.productId, let purchaseDate = payload.purchaseDate
        else { return nil }
        self.id = id
        self.originalID = originalID
        self.productID = productID
        self.subscriptionGroupID = payload.subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = payload.originalPurchaseDate ?? purchaseDate
        self.expirationDate = payload.expiresDate
        self.revocationDate = payload.revocationDate
        self.revocationReason = payload.revocationReason.map { Transaction.RevocationReason(rawValue: Int($0.rawValue)) }
        self.isUpgraded = payload.isUpgraded ?? false
        self.appAccountToken = payload.appAccountToken
        self.ownershipType = Transaction.OwnershipType(rawValue: payload.inAppOwnershipType?.rawValue ?? "PURCHASED")
        self.productType = Product.ProductType(rawValue: payload.type?.rawValue ?? "")
        self.signedDate = payload.signedDate ?? purchaseDate
        self.jsonRepresentation = json
        self.jws = jws
    }

    /// https://developer.apple.com/documentation/storekit/transaction/finish()
    /// `func finish() async`
    public func finish() async {
        await StoreKitMirrorRuntime.backendIfInstalled?.finish(transactionID: id)
    }

    /// https://developer.apple.com/documentation/storekit/transaction/updates
    /// `static var updates: Transaction.Transactions { get }`
    public static var updates: Transaction.Transactions {
        guard let backend = StoreKitMirrorRuntime.backendIfInstalled else { return Transactions(AsyncStream { $0.finish() }) }
        let signed = backend.transactionUpdates()
        return Transactions(AsyncStream { continuation in
            let task = Task {
                for await item in signed {
                    if let result = VerificationResult<Transaction>(item) { continuation.yield(result) }
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        })
    }

    /// https://developer.apple.com/documentation/storekit/transaction/unfinished
    /// `static var unfinished: Transaction.Transactions { get }`
    public static var unfinished: Transaction.Transactions {
        Transactions { await $0.unfinishedTransactions() }
    }

    /// https://developer.apple.com/documentation/storekit/transaction/all
    /// `static var all: Transaction.Transactions { get }`
    public static var all: Transaction.Transactions {
        Transactions { await $0.allTransactions() }
    }

    /// https://developer.apple.com/documentation/storekit/transaction/currententitlements
    /// `static var currentEntitlements: Transaction.Transactions { get }`
    public static var currentEntitlements: Transaction.Transactions {
        Transactions { await $0.currentEntitlements() }
    }

    /// https://developer.apple.com/documentation/storekit/transaction/beginrefundrequest(in:)-9k0pj
    /// `@MainActor func beginRefundRequest(in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus`
    /// — iOS 15.0, Mac Catalyst 15.0, visionOS 1.0.
    @available(iOS 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public func beginRefundRequest(in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus {
        try await StoreKitMirrorRuntime.backend().beginRefundRequest(transactionID: id)
    }

    /// https://developer.apple.com/documentation/storekit/transaction/beginrefundrequest(for:in:)-65tph
    /// `@MainActor static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus`
    @available(iOS 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func beginRefundRequest(for transactionID: UInt64, in scene: UIWindowScene) async throws -> Transaction.RefundRequestStatus {
        try await StoreKitMirrorRuntime.backend().beginRefundRequest(transactionID: transactionID)
    }
}
#endif
