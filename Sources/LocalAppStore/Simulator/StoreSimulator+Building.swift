import AppStoreModels
import EntitleCore
import Foundation

/// Building what the store signs: products, chains of transactions, periods and offers, payloads, notifications.
extension StoreSimulator {
    func product(_ id: String) throws(LocalStoreError) -> Product {
        guard let product = catalog.product(ProductID(id)) else {
            throw LocalStoreError(.unknownProduct, "\(id) is not a product of the catalog")
        }
        return product
    }

    func chain(_ original: String) throws(LocalStoreError) -> SimulatedSubscription {
        guard let chain = subscriptions[original] else {
            throw LocalStoreError(.unknownSubscription, "no purchase has originalTransactionId \(original)")
        }
        return chain
    }

    mutating func identifier() -> String {
        defer { nextIdentifier += 1 }
        return String(nextIdentifier)
    }

    func end(of product: Product, from start: Date) throws(LocalStoreError) -> Date {
        guard let period = product.period else {
            throw LocalStoreError(.unknownProduct, "\(product.id) has no subscription period")
        }
        return timeScale.end(of: period, from: start)
    }

    func applyIntroductoryOffer(_ offer: SubscriptionOffer, to chain: inout SimulatedSubscription, product: Product, from start: Date) {
        chain.offerType = .introductoryOffer
        chain.price = offer.price?.milliunits ?? 0
        switch offer.paymentMode {
        case .freeTrial:
            chain.offerDiscountType = .freeTrial
            chain.price = 0
            chain.expiresDate = timeScale.end(of: Self.multiply(offer.period, offer.numberOfPeriods), from: start)
        case .payUpFront:
            chain.offerDiscountType = .payUpFront
            chain.expiresDate = timeScale.end(of: Self.multiply(offer.period, offer.numberOfPeriods), from: start)
        case .payAsYouGo:
            chain.offerDiscountType = .payAsYouGo
            chain.introductoryPeriodsLeft = max(offer.numberOfPeriods - 1, 0)
            chain.expiresDate = timeScale.end(of: offer.period, from: start)
        }
    }

    /// A new period of `product` from `start`: a new transaction, with a pay-as-you-go
    /// introductory price or a redeemed offer when one applies.
    mutating func startPeriod(_ chain: inout SimulatedSubscription, product: Product, at start: Date) throws(LocalStoreError) {
        chain.transactionID = identifier()
        chain.webOrderLineItemID = identifier()
        chain.purchaseDate = start
        chain.offerType = nil
        chain.offerDiscountType = nil
        chain.offerIdentifier = nil
        chain.price = product.price?.milliunits ?? 0
        if chain.introductoryPeriodsLeft > 0, let offer = product.introductoryOffer, product.id.rawValue == chain.productID {
            chain.introductoryPeriodsLeft -= 1
            chain.offerType = .introductoryOffer
            chain.offerDiscountType = .payAsYouGo
            chain.price = offer.price?.milliunits ?? chain.price
            chain.expiresDate = timeScale.end(of: offer.period, from: start)
            return
        }
        chain.introductoryPeriodsLeft = 0
        if let pending = chain.pendingOffer {
            chain.offerType = pending.type
            chain.offerIdentifier = pending.identifier
            chain.pendingOffer = nil
        }
        chain.expiresDate = try end(of: product, from: start)
    }

    static func multiply(_ duration: ISODuration, _ times: Int) -> ISODuration {
        ISODuration(
            years: duration.years * times, months: duration.months * times, weeks: duration.weeks * times, days: duration.days * times)
    }

    func transactionPayload(_ chain: SimulatedSubscription, signedAt now: Date) -> JWSTransactionDecodedPayload {
        let product = catalog.product(ProductID(chain.productID))
        let type: ProductType = switch chain.kind {
        case .autoRenewable: .autoRenewable
        case .nonRenewing: .nonRenewing
        case .nonConsumable: .nonConsumable
        case .consumable: .consumable
        }
        return JWSTransactionDecodedPayload(
            appAccountToken: chain.appAccountToken, bundleId: bundleID, currency: catalog.currency ?? product?.price?.currency ?? "USD",
            environment: environment, expiresDate: chain.expiresDate, inAppOwnershipType: chain.ownership, isUpgraded: nil,
            offerDiscountType: chain.offerDiscountType, offerIdentifier: chain.offerIdentifier, offerType: chain.offerType,
            originalPurchaseDate: chain.originalPurchaseDate, originalTransactionId: chain.originalTransactionID, price: chain.price,
            productId: chain.productID, purchaseDate: chain.purchaseDate, quantity: 1, revocationDate: chain.revocationDate,
            revocationReason: chain.revocationReason, revocationPercentage: chain.revocationPercentage, revocationType: chain.revocationType,
            signedDate: now, storefront: "USA", storefrontId: "143441",
            subscriptionGroupIdentifier: product?.subscriptionGroupID, transactionId: chain.transactionID,
            transactionReason: chain.renewals > 0 && chain.transactionID != chain.originalTransactionID ? .renewal : .purchase, type: type,
            webOrderLineItemId: chain.webOrderLineItemID)
    }

    func renewalPayload(_ chain: SimulatedSubscription, signedAt now: Date) -> JWSRenewalInfoDecodedPayload {
        JWSRenewalInfoDecodedPayload(
            appAccountToken: chain.appAccountToken, autoRenewProductId: chain.autoRenewProductID, autoRenewStatus: chain.autoRenew ? .on : .off,
            currency: catalog.currency ?? "USD", environment: environment, expirationIntent: chain.expirationIntent,
            gracePeriodExpiresDate: chain.phase == .gracePeriod ? chain.gracePeriodExpiresDate : nil,
            isInBillingRetryPeriod: chain.phase == .gracePeriod || chain.phase == .billingRetry,
            offerIdentifier: chain.pendingOffer?.identifier, offerType: chain.pendingOffer?.type,
            originalTransactionId: chain.originalTransactionID, priceIncreaseStatus: chain.priceIncreaseStatus, productId: chain.productID,
            recentSubscriptionStartDate: chain.originalPurchaseDate, renewalDate: chain.autoRenew ? chain.expiresDate : nil,
            renewalPrice: catalog.product(ProductID(chain.autoRenewProductID))?.price?.milliunits, signedDate: now)
    }

    func status(_ chain: SimulatedSubscription) -> Status {
        switch chain.phase {
        case .active: .active
        case .gracePeriod: .billingGracePeriod
        case .billingRetry: .billingRetry
        case .expired: .expired
        case .revoked: .revoked
        }
    }

    func notify(
        _ type: NotificationTypeV2, _ subtype: Subtype?, _ chain: SimulatedSubscription, at now: Date, signedTransaction: String? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil
    ) throws(LocalStoreError) -> SignedNotification {
        let transaction: String
        if let signedTransaction {
            transaction = signedTransaction
        } else {
            transaction = try signer.sign(transactionPayload(chain, signedAt: now))
        }
        var signedRenewal: String?
        if chain.kind == .autoRenewable { signedRenewal = try signer.sign(renewalPayload(chain, signedAt: now)) }
        return try sign(ResponseBodyV2DecodedPayload(
            notificationType: type, subtype: subtype, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(
                environment: environment, appAppleId: appAppleID, bundleId: bundleID, bundleVersion: "1",
                signedTransactionInfo: transaction, signedRenewalInfo: signedRenewal,
                status: chain.kind == .autoRenewable ? status(chain) : nil, consumptionRequestReason: consumptionRequestReason),
            version: "2.0", signedDate: now), original: chain.originalTransactionID)
    }

    /// Notifies the chain and, with `update` applied, each family member sharing it.
    mutating func notifyFamily(
        _ chain: SimulatedSubscription, _ type: NotificationTypeV2, _ subtype: Subtype?, at now: Date,
        update: (inout SimulatedSubscription) -> Void = { _ in }
    ) throws(LocalStoreError) -> [SignedNotification] {
        var notifications = [try notify(type, subtype, chain, at: now)]
        for member in chain.familyMembers {
            guard var shared = subscriptions[member], shared.phase != .revoked else { continue }
            shared.phase = chain.phase
            shared.gracePeriodExpiresDate = chain.gracePeriodExpiresDate
            update(&shared)
            subscriptions[member] = shared
            notifications.append(try notify(type, subtype, shared, at: now))
        }
        return notifications
    }

    func sign(_ payload: ResponseBodyV2DecodedPayload, original: String?) throws(LocalStoreError) -> SignedNotification {
        SignedNotification(
            notificationUUID: payload.notificationUUID ?? "", type: payload.notificationType ?? .test, subtype: payload.subtype,
            signedDate: payload.signedDate ?? .distantPast, originalTransactionID: original, signedPayload: try signer.sign(payload))
    }
}
