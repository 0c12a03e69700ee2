import AppStoreModels
import EntitleCore
import Foundation

/// The local App Store: plays purchases through Apple's subscription lifecycle for a catalog and
/// emits, signed, exactly what the App Store would — the StoreKit 2 transaction the app gets and
/// submits, and the V2 notifications its server receives. Identifiers follow Apple's: a new
/// `transactionId` per renewal, a constant `originalTransactionId`, a `webOrderLineItemId` per period.
///
/// Time is an input: every operation takes the instant it happens at. Periods last as long as
/// `timeScale` says (Apple's sandbox rates, a factor, or calendar time).
public struct StoreSimulator: Sendable {
    public let catalog: Catalog
    public let bundleID: String
    public let environment: Environment
    public let appAppleID: Int64?
    public let timeScale: TimeScale
    /// The billing grace period the app has configured in App Store Connect (`nil`: none).
    public let billingGracePeriod: ISODuration?
    private let signer: AppStoreSigner
    private var nextIdentifier: Int64
    public private(set) var subscriptions: [String: SimulatedSubscription] = [:]
    /// Subscription groups each account has subscribed in (intro offer eligibility).
    private var groupsUsed: Set<String> = []

    public init(
        catalog: Catalog, bundleID: String, environment: Environment = .sandbox, appAppleID: Int64? = nil, signer: AppStoreSigner,
        timeScale: TimeScale = .real, billingGracePeriod: ISODuration? = ISODuration(days: 16), firstIdentifier: Int64 = 2_000_000_000_000_001
    ) {
        self.catalog = catalog
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.signer = signer
        self.timeScale = timeScale
        self.billingGracePeriod = billingGracePeriod
        self.nextIdentifier = firstIdentifier
    }

    public func subscription(_ originalTransactionID: String) -> SimulatedSubscription? { subscriptions[originalTransactionID] }

    // MARK: - Purchases

    /// A first purchase of `productID`: SUBSCRIBED (INITIAL_BUY) for a subscription, ONE_TIME_CHARGE
    /// otherwise. The introductory offer applies when the product has one, `introductoryOffer` is
    /// true, and the account (`appAccountToken`) has not subscribed in the group before.
    public mutating func purchase(
        _ productID: String, appAccountToken: UUID? = nil, at now: Date, introductoryOffer: Bool = true, promotionalOffer: String? = nil
    ) throws(LocalStoreError) -> StorePurchase {
        let product = try product(productID)
        let promotion = try promotionalOffer.map { offerID throws(LocalStoreError) in
            guard let offer = product.promotionalOffers.first(where: { $0.id == offerID }) else {
                throw LocalStoreError(.unknownProduct, "\(productID) has no promotional offer \(offerID)")
            }
            return offer
        }
        let original = identifier()
        var chain = SimulatedSubscription(
            originalTransactionID: original, kind: product.kind, appAccountToken: appAccountToken, ownership: .purchased, familyOwner: nil,
            originalPurchaseDate: now, productID: productID, autoRenewProductID: productID, autoRenew: product.kind == .autoRenewable,
            purchaseDate: now, transactionID: original, price: product.price?.milliunits ?? 0)
        let eligibilityKey = "\(appAccountToken?.uuidString ?? original)/\(product.subscriptionGroupID ?? "")"
        if product.kind == .autoRenewable {
            chain.webOrderLineItemID = identifier()
            if let promotion {
                // The signed offer the app passed (its signature checked by whoever sells): its price for
                // its first period, as StoreKit bills it.
                applyIntroductoryOffer(promotion, to: &chain, product: product, from: now)
                chain.offerType = .promotionalOffer
                chain.offerIdentifier = promotion.id
                chain.introductoryPeriodsLeft = 0
            } else if introductoryOffer, let offer = product.introductoryOffer, !groupsUsed.contains(eligibilityKey) {
                applyIntroductoryOffer(offer, to: &chain, product: product, from: now)
            } else {
                chain.expiresDate = try end(of: product, from: now)
            }
            groupsUsed.insert(eligibilityKey)
        } else if product.kind == .nonRenewing {
            chain.expiresDate = product.period.map { timeScale.end(of: $0, from: now) }
        }
        subscriptions[original] = chain
        let transaction = transactionPayload(chain, signedAt: now)
        let signedTransaction = try signer.sign(transaction)
        let notification: SignedNotification = switch product.kind {
        case .autoRenewable: try notify(.subscribed, .initialBuy, chain, at: now, signedTransaction: signedTransaction)
        default: try notify(.oneTimeCharge, nil, chain, at: now, signedTransaction: signedTransaction)
        }
        return StorePurchase(originalTransactionID: original, transaction: transaction, signedTransaction: signedTransaction, notifications: [notification])
    }

    /// A purchase in a group the account left: the same chain starts again (SUBSCRIBED, RESUBSCRIBE).
    public mutating func resubscribe(_ original: String, productID: String? = nil, at now: Date) throws(LocalStoreError) -> StorePurchase {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .expired else {
            throw LocalStoreError(.invalidTransition, "only an expired subscription can be resubscribed (\(original) is \(chain.phase.rawValue))")
        }
        let product = try product(productID ?? chain.productID)
        chain.productID = product.id
        chain.autoRenewProductID = product.id
        chain.autoRenew = true
        chain.expirationIntent = nil
        chain.gracePeriodExpiresDate = nil
        chain.phase = .active
        try startPeriod(&chain, product: product, at: now)
        subscriptions[original] = chain
        let transaction = transactionPayload(chain, signedAt: now)
        let signedTransaction = try signer.sign(transaction)
        let notification = try notify(.subscribed, .resubscribe, chain, at: now, signedTransaction: signedTransaction)
        return StorePurchase(originalTransactionID: original, transaction: transaction, signedTransaction: signedTransaction, notifications: [notification])
    }

    /// A family member gets the purchaser's family-shareable product: their own chain, owned
    /// FAMILY_SHARED, mirroring the purchaser's period.
    public mutating func shareWithFamily(_ original: String, memberAccountToken: UUID? = nil, at now: Date) throws(LocalStoreError) -> StorePurchase {
        var owner = try chain(original)
        let product = try product(owner.productID)
        guard product.familyShareable, owner.ownership == .purchased, owner.phase == .active else {
            throw LocalStoreError(.invalidTransition, "\(owner.productID) is not family-shareable, or \(original) is not an active purchase")
        }
        let memberOriginal = identifier()
        var member = SimulatedSubscription(
            originalTransactionID: memberOriginal, kind: owner.kind, appAccountToken: memberAccountToken, ownership: .familyShared,
            familyOwner: original, originalPurchaseDate: now, productID: owner.productID, autoRenewProductID: owner.autoRenewProductID,
            autoRenew: owner.autoRenew, purchaseDate: owner.purchaseDate, transactionID: memberOriginal, price: owner.price)
        member.expiresDate = owner.expiresDate
        member.webOrderLineItemID = owner.webOrderLineItemID
        owner.familyMembers.append(memberOriginal)
        subscriptions[original] = owner
        subscriptions[memberOriginal] = member
        let transaction = transactionPayload(member, signedAt: now)
        let signedTransaction = try signer.sign(transaction)
        let notification = try notify(
            member.kind == .autoRenewable ? .subscribed : .oneTimeCharge, member.kind == .autoRenewable ? .initialBuy : nil, member, at: now,
            signedTransaction: signedTransaction)
        return StorePurchase(originalTransactionID: memberOriginal, transaction: transaction, signedTransaction: signedTransaction, notifications: [notification])
    }

    /// The transaction the app would see now for `original` (e.g. for a restore on a new install).
    public func currentTransaction(_ original: String, at now: Date) throws(LocalStoreError) -> String {
        try signer.sign(transactionPayload(try chain(original), signedAt: now))
    }

    // MARK: - Renewals

    /// The subscription renews (DID_RENEW; BILLING_RECOVERY after a failed renewal) at its expiry,
    /// or at `now` when recovering from billing retry. A pending downgrade or redeemed offer takes
    /// effect here. Family members renew with it.
    public mutating func renew(_ original: String, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase != .revoked, chain.phase != .expired else {
            throw LocalStoreError(.invalidTransition, "\(original) can't renew (\(chain.phase.rawValue))")
        }
        let recovering = chain.phase == .gracePeriod || chain.phase == .billingRetry
        let expires = chain.expiresDate ?? chain.purchaseDate
        // Recovered in grace: no service days lost, the period starts at the old expiry. Recovered
        // in billing retry: a new period starts at recovery.
        let start = chain.phase == .billingRetry ? (now ?? expires) : expires
        let at = now ?? expires
        let product = try product(chain.autoRenewProductID)
        chain.productID = product.id
        chain.phase = .active
        chain.gracePeriodExpiresDate = nil
        chain.renewals += 1
        try startPeriod(&chain, product: product, at: start)
        subscriptions[original] = chain
        var notifications = [try notify(.didRenew, recovering ? .billingRecovery : nil, chain, at: at)]
        for member in chain.familyMembers {
            guard var shared = subscriptions[member], shared.phase != .revoked else { continue }
            shared.productID = chain.productID
            shared.purchaseDate = chain.purchaseDate
            shared.expiresDate = chain.expiresDate
            shared.webOrderLineItemID = chain.webOrderLineItemID
            shared.transactionID = identifier()
            shared.phase = .active
            shared.gracePeriodExpiresDate = nil
            subscriptions[member] = shared
            notifications.append(try notify(.didRenew, recovering ? .billingRecovery : nil, shared, at: at))
        }
        return notifications
    }

    /// The renewal fails: DID_FAIL_TO_RENEW, with the GRACE_PERIOD subtype when the app has a
    /// billing grace period (access continues until it ends), otherwise straight into billing retry.
    public mutating func failRenewal(_ original: String, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active, chain.autoRenew else {
            throw LocalStoreError(.invalidTransition, "only an active, renewing subscription can fail to renew (\(original))")
        }
        let expires = chain.expiresDate ?? chain.purchaseDate
        if let grace = billingGracePeriod {
            chain.phase = .gracePeriod
            chain.gracePeriodExpiresDate = timeScale.end(of: grace, from: expires)
        } else {
            chain.phase = .billingRetry
        }
        chain.offerDiscountType = nil
        chain.offerType = nil
        subscriptions[original] = chain
        return try notifyFamily(chain, .didFailToRenew, chain.phase == .gracePeriod ? .gracePeriod : nil, at: now ?? expires)
    }

    /// The billing grace period ends without recovery: GRACE_PERIOD_EXPIRED; billing retry goes on.
    public mutating func expireGracePeriod(_ original: String, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.phase == .gracePeriod, let ends = chain.gracePeriodExpiresDate else {
            throw LocalStoreError(.invalidTransition, "\(original) is not in a billing grace period")
        }
        chain.phase = .billingRetry
        subscriptions[original] = chain
        return try notifyFamily(chain, .gracePeriodExpired, nil, at: now ?? ends)
    }

    /// Why a subscription ends, as the EXPIRED notification's subtype says.
    public enum ExpiryReason: Sendable {
        /// The customer turned auto-renew off (EXPIRED, VOLUNTARY); at the period's end.
        case voluntary
        /// Billing retry gave up (EXPIRED, BILLING_RETRY).
        case billingRetry
        /// The customer didn't consent to a price increase (EXPIRED, PRICE_INCREASE); at the period's end.
        case priceIncrease
        /// The product was no longer for sale at renewal (EXPIRED, PRODUCT_NOT_FOR_SALE); at the period's end.
        case productNotForSale
    }

    /// The subscription expires. At its expiry date unless `now` is given (billing retry ends when
    /// Apple stops retrying).
    public mutating func expire(_ original: String, reason: ExpiryReason, at now: Date? = nil) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase != .revoked, chain.phase != .expired else {
            throw LocalStoreError(.invalidTransition, "\(original) can't expire (\(chain.phase.rawValue))")
        }
        let subtype: Subtype
        switch reason {
        case .voluntary:
            guard chain.phase == .active, !chain.autoRenew else {
                throw LocalStoreError(.invalidTransition, "a voluntary expiry needs auto-renew turned off first (\(original))")
            }
            subtype = .voluntary
            chain.expirationIntent = .customerCancelled
        case .billingRetry:
            guard chain.phase == .billingRetry || chain.phase == .gracePeriod else {
                throw LocalStoreError(.invalidTransition, "\(original) is not in billing retry")
            }
            subtype = .billingRetry
            chain.expirationIntent = .billingError
        case .priceIncrease:
            subtype = .priceIncrease
            chain.expirationIntent = .customerDidNotConsentToPriceIncrease
        case .productNotForSale:
            subtype = .productNotForSale
            chain.expirationIntent = .productNotAvailable
        }
        let at = now ?? chain.expiresDate ?? chain.purchaseDate
        chain.phase = .expired
        chain.autoRenew = false
        chain.gracePeriodExpiresDate = nil
        subscriptions[original] = chain
        return try notifyFamily(chain, .expired, subtype, at: at) { member in
            member.expirationIntent = chain.expirationIntent
        }
    }

    // MARK: - Customer choices

    /// The customer turns auto-renew off or on: DID_CHANGE_RENEWAL_STATUS.
    public mutating func setAutoRenew(_ original: String, _ enabled: Bool, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase != .revoked, chain.phase != .expired, chain.autoRenew != enabled else {
            throw LocalStoreError(.invalidTransition, "auto-renew of \(original) can't be turned \(enabled ? "on" : "off") now")
        }
        chain.autoRenew = enabled
        chain.expirationIntent = nil
        subscriptions[original] = chain
        return try notifyFamily(chain, .didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled, at: now) { member in
            member.autoRenew = enabled
        }
    }

    /// The customer switches product in the group: DID_CHANGE_RENEWAL_PREF, with Apple's rules
    /// (``ProductChange``). An upgrade, or a crossgrade to the same duration, takes effect at once with
    /// a new transaction (subtype UPGRADE, none for the crossgrade); a downgrade, or a crossgrade to
    /// another duration, at renewal (DOWNGRADE, none for the crossgrade). Choosing the current product
    /// again cancels a pending change.
    public mutating func changeProduct(_ original: String, to productID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        let current = try product(chain.productID)
        let target = try product(productID)
        guard chain.kind == .autoRenewable, chain.ownership == .purchased, chain.phase == .active,
            target.kind == .autoRenewable, target.subscriptionGroupID == current.subscriptionGroupID
        else {
            throw LocalStoreError(.invalidTransition, "\(original) can't change to \(productID) (another group, or not active)")
        }
        guard let change = ProductChange(from: current, to: target) else {
            chain.autoRenewProductID = productID
            subscriptions[original] = chain
            return [try notify(.didChangeRenewalPref, nil, chain, at: now)]
        }
        switch change.timing {
        case .immediately:
            chain.productID = productID
            chain.autoRenewProductID = productID
            chain.autoRenew = true
            try startPeriod(&chain, product: target, at: now)
            subscriptions[original] = chain
            return try notifyFamily(chain, .didChangeRenewalPref, change.notificationSubtype, at: now) { member in
                member.productID = chain.productID
                member.autoRenewProductID = productID
                member.purchaseDate = chain.purchaseDate
                member.expiresDate = chain.expiresDate
            }
        case .atNextRenewal:
            chain.autoRenewProductID = productID
            subscriptions[original] = chain
            return try notifyFamily(chain, .didChangeRenewalPref, change.notificationSubtype, at: now) { member in
                member.autoRenewProductID = productID
            }
        }
    }

    /// The customer redeems a promotional offer or offer code for the next renewal: OFFER_REDEEMED.
    public mutating func redeemOffer(_ original: String, type: OfferType, identifier offerID: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active else {
            throw LocalStoreError(.invalidTransition, "an offer applies to an active subscription (\(original))")
        }
        chain.pendingOffer = (type, offerID)
        subscriptions[original] = chain
        return [try notify(.offerRedeemed, nil, chain, at: now)]
    }

    /// The developer raises the price: PRICE_INCREASE, PENDING until the customer consents (or
    /// ACCEPTED when `consented`).
    public mutating func priceIncrease(_ original: String, consented: Bool, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active else {
            throw LocalStoreError(.invalidTransition, "a price increase applies to an active subscription (\(original))")
        }
        chain.priceIncreaseStatus = consented ? .customerConsentedOrWasNotifiedWithoutNeedingConsent : .customerHasNotResponded
        subscriptions[original] = chain
        return [try notify(.priceIncrease, consented ? .accepted : .pending, chain, at: now)]
    }

    /// The developer extends the current period by `days` (App Store Server API): RENEWAL_EXTENDED.
    public mutating func extendRenewal(_ original: String, days: Int, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .active, (1...90).contains(days), let expires = chain.expiresDate else {
            throw LocalStoreError(.invalidTransition, "only an active subscription can be extended, by 1 to 90 days (\(original))")
        }
        chain.expiresDate = timeScale.end(of: ISODuration(days: days), from: expires)
        subscriptions[original] = chain
        return try notifyFamily(chain, .renewalExtended, nil, at: now) { member in member.expiresDate = chain.expiresDate }
    }

    // MARK: - Refunds and revocations

    /// The customer asks Apple for a refund: CONSUMPTION_REQUEST, asking the developer for
    /// consumption information.
    public func consumptionRequest(_ original: String, reason: ConsumptionRequestReason = .unsatisfiedWithPurchase, at now: Date) throws(LocalStoreError) -> SignedNotification {
        let chain = try chain(original)
        return try notify(.consumptionRequest, nil, chain, at: now, consumptionRequestReason: reason)
    }

    /// Apple refunds the latest transaction: REFUND, revoked at once; family members lose it (REVOKE).
    public mutating func refund(_ original: String, reason: RevocationReason = .other, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.ownership == .purchased, chain.phase != .revoked else {
            throw LocalStoreError(.invalidTransition, "\(original) can't be refunded (\(chain.phase.rawValue))")
        }
        chain.phaseBeforeRevocation = chain.phase
        chain.phase = .revoked
        chain.revocationDate = now
        chain.revocationReason = reason
        chain.autoRenew = false
        subscriptions[original] = chain
        var notifications = [try notify(.refund, nil, chain, at: now)]
        for member in chain.familyMembers {
            guard var shared = subscriptions[member], shared.phase != .revoked else { continue }
            shared.phaseBeforeRevocation = shared.phase
            shared.phase = .revoked
            shared.revocationDate = now
            shared.revocationReason = reason
            subscriptions[member] = shared
            notifications.append(try notify(.revoke, nil, shared, at: now))
        }
        return notifications
    }

    /// Apple reverses a refund: REFUND_REVERSED; the purchase is restored.
    public mutating func reverseRefund(_ original: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.phase == .revoked, chain.ownership == .purchased else {
            throw LocalStoreError(.invalidTransition, "\(original) has no refund to reverse")
        }
        chain.phase = chain.phaseBeforeRevocation ?? .active
        chain.revocationDate = nil
        chain.revocationReason = nil
        subscriptions[original] = chain
        return [try notify(.refundReversed, nil, chain, at: now)]
    }

    /// The purchaser stops sharing, or the member leaves the family: REVOKE for the member's chain.
    public mutating func stopFamilySharing(_ memberOriginal: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var member = try chain(memberOriginal)
        guard member.ownership == .familyShared, member.phase != .revoked, let owner = member.familyOwner else {
            throw LocalStoreError(.invalidTransition, "\(memberOriginal) is not an active family-shared purchase")
        }
        member.phaseBeforeRevocation = member.phase
        member.phase = .revoked
        member.revocationDate = now
        member.revocationReason = .other
        subscriptions[memberOriginal] = member
        subscriptions[owner]?.familyMembers.removeAll { $0 == memberOriginal }
        return [try notify(.revoke, nil, member, at: now)]
    }

    /// A TEST notification (App Store Server API's "request a test notification").
    public func testNotification(at now: Date) throws(LocalStoreError) -> SignedNotification {
        try sign(ResponseBodyV2DecodedPayload(
            notificationType: .test, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(environment: environment, appAppleId: appAppleID, bundleId: bundleID), version: "2.0", signedDate: now),
            original: nil)
    }

    // MARK: - Building

    private func product(_ id: String) throws(LocalStoreError) -> Product {
        guard let product = catalog.product(id) else {
            throw LocalStoreError(.unknownProduct, "\(id) is not a product of the catalog")
        }
        return product
    }

    private func chain(_ original: String) throws(LocalStoreError) -> SimulatedSubscription {
        guard let chain = subscriptions[original] else {
            throw LocalStoreError(.unknownSubscription, "no purchase has originalTransactionId \(original)")
        }
        return chain
    }

    private mutating func identifier() -> String {
        defer { nextIdentifier += 1 }
        return String(nextIdentifier)
    }

    private func end(of product: Product, from start: Date) throws(LocalStoreError) -> Date {
        guard let period = product.period else {
            throw LocalStoreError(.unknownProduct, "\(product.id) has no subscription period")
        }
        return timeScale.end(of: period, from: start)
    }

    private func applyIntroductoryOffer(_ offer: SubscriptionOffer, to chain: inout SimulatedSubscription, product: Product, from start: Date) {
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
    private mutating func startPeriod(_ chain: inout SimulatedSubscription, product: Product, at start: Date) throws(LocalStoreError) {
        chain.transactionID = identifier()
        chain.webOrderLineItemID = identifier()
        chain.purchaseDate = start
        chain.offerType = nil
        chain.offerDiscountType = nil
        chain.offerIdentifier = nil
        chain.price = product.price?.milliunits ?? 0
        if chain.introductoryPeriodsLeft > 0, let offer = product.introductoryOffer, product.id == chain.productID {
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

    private static func multiply(_ duration: ISODuration, _ times: Int) -> ISODuration {
        ISODuration(
            years: duration.years * times, months: duration.months * times, weeks: duration.weeks * times, days: duration.days * times)
    }

    func transactionPayload(_ chain: SimulatedSubscription, signedAt now: Date) -> JWSTransactionDecodedPayload {
        let product = catalog.product(chain.productID)
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
            revocationReason: chain.revocationReason, signedDate: now, storefront: "USA", storefrontId: "143441",
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
            renewalPrice: catalog.product(chain.autoRenewProductID)?.price?.milliunits, signedDate: now)
    }

    private func status(_ chain: SimulatedSubscription) -> Status {
        switch chain.phase {
        case .active: .active
        case .gracePeriod: .billingGracePeriod
        case .billingRetry: .billingRetry
        case .expired: .expired
        case .revoked: .revoked
        }
    }

    private func notify(
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
    private mutating func notifyFamily(
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

    private func sign(_ payload: ResponseBodyV2DecodedPayload, original: String?) throws(LocalStoreError) -> SignedNotification {
        SignedNotification(
            notificationUUID: payload.notificationUUID ?? "", type: payload.notificationType ?? .test, subtype: payload.subtype,
            signedDate: payload.signedDate ?? .distantPast, originalTransactionID: original, signedPayload: try signer.sign(payload))
    }
}
