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
        if let commitment = chain.commitment {
            if commitment.productID == product.id.rawValue, commitment.hasPeriodsLeft {
                try startInstalment(&chain, at: start)
                return
            }
            if commitment.productID == product.id.rawValue, chain.autoRenew {
                // The commitment ended and renews as it was: a new one, from its first instalment.
                chain.commitment = SimulatedCommitment(
                    productID: commitment.productID, startedAt: start, billingPeriod: 0, totalBillingPeriods: commitment.totalBillingPeriods,
                    endsAt: try end(of: product, from: start), instalment: commitment.instalment)
                try startInstalment(&chain, at: start)
                return
            }
            chain.commitment = nil
        }
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
            chain.pendingOffer = nil
            // The redeemed offer, as the catalog declares it: its price and length for this period.
            let offers = product.offerCodes + product.promotionalOffers + product.winBackOffers
            if let offer = offers.first(where: { $0.id == pending.identifier }) {
                applyIntroductoryOffer(offer, to: &chain, product: product, from: start)
                chain.introductoryPeriodsLeft = 0
            } else {
                chain.expiresDate = try end(of: product, from: start)
            }
            chain.offerType = pending.type
            chain.offerIdentifier = pending.identifier
            return
        }
        chain.expiresDate = try end(of: product, from: start)
    }

    /// The commitment's next billing period from `start`: its instalment's price, ending a month after the
    /// commitment's start for each period paid (a month from `start` when billing retry delayed it), the
    /// last never before the commitment's end.
    mutating func startInstalment(_ chain: inout SimulatedSubscription, at start: Date) throws(LocalStoreError) {
        guard var commitment = chain.commitment else { return }
        commitment.billingPeriod += 1
        var ends = timeScale.end(of: ISODuration(months: commitment.billingPeriod), from: commitment.startedAt)
        if ends <= start { ends = timeScale.end(of: ISODuration(months: 1), from: start) }
        if commitment.billingPeriod == commitment.totalBillingPeriods {
            ends = max(ends, commitment.endsAt)
            commitment.endsAt = ends
        }
        chain.price = commitment.instalment
        chain.expiresDate = ends
        chain.introductoryPeriodsLeft = 0
        chain.commitment = commitment
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
        var payload = JWSTransactionDecodedPayload(
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
        payload.appTransactionId = chain.appTransactionID
        if let commitment = chain.commitment {
            payload.billingPlanType = .monthly
            payload.commitmentInfo = TransactionCommitmentInfo(
                billingPeriodNumber: Int32(commitment.billingPeriod), commitmentExpiresDate: commitment.endsAt, commitmentPrice: commitment.price,
                totalBillingPeriods: Int32(commitment.totalBillingPeriods))
        }
        return payload
    }

    func renewalPayload(_ chain: SimulatedSubscription, signedAt now: Date) -> JWSRenewalInfoDecodedPayload {
        var info = JWSRenewalInfoDecodedPayload(
            appAccountToken: chain.appAccountToken, autoRenewProductId: chain.autoRenewProductID, autoRenewStatus: chain.renewsNext ? .on : .off,
            currency: catalog.currency ?? "USD", environment: environment, expirationIntent: chain.expirationIntent,
            gracePeriodExpiresDate: chain.phase == .gracePeriod ? chain.gracePeriodExpiresDate : nil,
            isInBillingRetryPeriod: chain.phase == .gracePeriod || chain.phase == .billingRetry,
            offerIdentifier: chain.pendingOffer?.identifier, offerType: chain.pendingOffer?.type,
            originalTransactionId: chain.originalTransactionID, priceIncreaseStatus: chain.priceIncreaseStatus, productId: chain.productID,
            recentSubscriptionStartDate: chain.originalPurchaseDate, renewalDate: chain.renewsNext ? chain.expiresDate : nil,
            renewalPrice: catalog.product(ProductID(chain.autoRenewProductID))?.price?.milliunits, signedDate: now)
        if let commitment = chain.commitment {
            // The next instalment, and how the commitment renews at its end.
            info.renewalBillingPlanType = .monthly
            info.renewalPrice = commitment.hasPeriodsLeft ? commitment.instalment : info.renewalPrice
            info.commitmentInfo = RenewalCommitmentInfo(
                commitmentAutoRenewProductId: chain.autoRenewProductID, commitmentAutoRenewStatus: chain.autoRenew ? .on : .off,
                commitmentRenewalBillingPlanType: .monthly, commitmentRenewalDate: commitment.endsAt, commitmentRenewalPrice: commitment.price)
        }
        return info
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
