import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation

/// Every transaction the ledger holds, in ledger order, as RevenueCat-compatible rows (docs/exports.md):
/// read from a cursor the reader keeps, a page at a time, so an export of any size holds one page in
/// memory. `GET /v1/exports/transactions` and `entitle export transactions` both use it.
public struct TransactionExport: Sendable {
    let catalog: Catalog
    let feed: any LedgerFeed
    let identity: any IdentityStore

    /// Events read per page.
    public static let pageSize = 1_000

    public init(catalog: Catalog, feed: any LedgerFeed, identity: any IdentityStore) {
        self.catalog = catalog
        self.feed = feed
        self.identity = identity
    }

    /// The ledger position a cursor stands for: `nil` or empty, the beginning; else what an export
    /// answered as its next cursor (a whole number).
    public static func position(of cursor: String?) throws(ServiceError) -> Int64 {
        guard let cursor, !cursor.isEmpty else { return 0 }
        guard cursor.utf8.count <= 19, cursor.allSatisfy(\.isASCII), let position = Int64(cursor), position >= 0 else {
            throw ServiceError(.invalidRequest, "cursor is what an export answered as its next cursor")
        }
        return position
    }

    /// Where an export started now ends: the next export's cursor.
    public func head() async throws(ServiceError) -> Int64 {
        do {
            return try await feed.feedHead()
        } catch {
            throw ServiceError(error)
        }
    }

    /// The rows of the transactions after `position` through `head`, a page at a time to `page`
    /// (in ledger order); returns how many rows.
    @discardableResult
    public func rows(
        after position: Int64, through head: Int64, page: ([TransactionExportRow]) async throws -> Void
    ) async throws -> Int {
        var position = position
        var count = 0
        while position < head, !Task.isCancelled {
            let events = try await feed.feedEvents(after: position, through: head, limit: Self.pageSize)
            guard let last = events.last else { break }
            position = last.sequence
            let carried = events.compactMap { sequence, event in Self.transaction(of: event).map { (sequence, event, $0) } }
            guard !carried.isEmpty else { continue }
            let purchases = Set(carried.compactMap { $0.2.purchaseChain })
            let owners = try await identity.owners(originalTransactionIDs: purchases)
            let rows = carried.compactMap { sequence, event, transaction in
                row(transaction, sequence: sequence, event: event, owner: transaction.purchaseChain.flatMap { owners[$0] })
            }
            count += rows.count
            if !rows.isEmpty { try await page(rows) }
        }
        return count
    }

    /// The transaction an event carries, if any: one the app submitted or Apple's notification brought.
    static func transaction(of event: LedgerEvent) -> JWSTransactionDecodedPayload? {
        switch event.payload {
        case .transaction(let transaction): transaction
        case .notification(_, _, let transaction?, _): transaction
        default: nil
        }
    }

    /// The row of `transaction`, carried by `event` at `sequence`, whose purchase `owner` holds now; `nil`
    /// without the ids and purchase date every row has.
    func row(_ transaction: JWSTransactionDecodedPayload, sequence: Int64, event: LedgerEvent, owner: AppUserID?) -> TransactionExportRow? {
        guard let id = transaction.transactionId, let started = transaction.purchaseDate else { return nil }
        let storedUnder = event.appUserID ?? owner
        let price = transaction.price.map { Decimal($0) / 1000 }
        let refunded = transaction.revocationDate != nil
        let free = transaction.offerDiscountType == .freeTrial
        let currency = transaction.currency
        let product = transaction.productId ?? ""
        return TransactionExportRow(
            rcOriginalAppUserID: storedUnder?.rawValue ?? "", rcLastSeenAppUserIDAlias: (owner ?? storedUnder)?.rawValue ?? "",
            country: transaction.storefront, productIdentifier: product, startTime: started, endTime: transaction.expiresDate,
            isAutoRenewable: transaction.type == .autoRenewable, isTrialPeriod: free,
            isInIntroOfferPeriod: transaction.offerType == .introductoryOffer && !free, isSandbox: transaction.environment != .production,
            priceInUSD: currency == "USD" ? (refunded ? 0 : price) : nil, storeTransactionID: id,
            originalStoreTransactionID: transaction.originalTransactionId ?? id, refundedAt: transaction.revocationDate, purchasedCurrency: currency,
            priceInPurchasedCurrency: refunded ? price.map { _ in 0 } : price, purchasePriceInPurchasedCurrency: price,
            entitlementIdentifiers: catalog.entitlements(forProduct: ProductID(product)).map(\.id).sorted(),
            ownershipType: transaction.inAppOwnershipType?.rawValue ?? InAppOwnershipType.purchased.rawValue,
            offerType: transaction.offerType.flatMap { type in OfferType.documented.first { $0.value == type }?.name }, offer: transaction.offerIdentifier,
            environment: transaction.environment?.rawValue ?? "", updatedAt: transaction.signedDate ?? event.signedDate ?? event.receivedAt,
            entitleSequence: sequence)
    }
}
