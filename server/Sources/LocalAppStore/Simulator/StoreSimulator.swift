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
    let signer: AppStoreSigner
    var nextIdentifier: Int64
    public internal(set) var subscriptions: [String: SimulatedSubscription] = [:]
    /// Subscription groups each account has subscribed in (intro offer eligibility).
    var groupsUsed: Set<String> = []

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
    /// true, and the account (`appAccountToken`) has not subscribed in the group before — unless the
    /// app's server decided (`introductoryOfferEligibility`, its signed word, already checked), which
    /// StoreKit follows instead of its own rule. `billingPlan` `.monthly` buys a yearly subscription billed
    /// monthly under a 12-month commitment (no introductory offer): each month a transaction of a twelfth
    /// of the price, rounded up to the cent.
    public mutating func purchase(
        _ productID: String, appAccountToken: UUID? = nil, at now: Date, introductoryOffer: Bool = true, introductoryOfferEligibility: Bool? = nil,
        promotionalOffer: String? = nil, billingPlan: BillingPlanType? = nil
    ) throws(LocalStoreError) -> StorePurchase {
        let product = try product(productID)
        let committed = billingPlan == .monthly
        if committed {
            guard product.kind == .autoRenewable, let period = product.period, period.years * 12 + period.months == 12, period.weeks == 0, period.days == 0
            else {
                throw LocalStoreError(.invalidTransition, "only a yearly subscription can be billed monthly with a 12-month commitment (\(productID))")
            }
        }
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
            if committed {
                let commitment = SimulatedCommitment(
                    productID: productID, startedAt: now, billingPeriod: 0, totalBillingPeriods: 12, endsAt: try end(of: product, from: now),
                    instalment: SimulatedCommitment.instalment(ofYearly: product.price?.milliunits ?? 0, periods: 12))
                chain.commitment = commitment
                chain.transactionID = original
                try startInstalment(&chain, at: now)
            } else if let promotion {
                // The signed offer the app passed (its signature checked by whoever sells): its price for
                // its first period, as StoreKit bills it.
                applyIntroductoryOffer(promotion, to: &chain, product: product, from: now)
                chain.offerType = .promotionalOffer
                chain.offerIdentifier = promotion.id
                chain.introductoryPeriodsLeft = 0
            } else if introductoryOffer, let offer = product.introductoryOffer, introductoryOfferEligibility ?? !groupsUsed.contains(eligibilityKey) {
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
    public mutating func resubscribe(
        _ original: String, productID: String? = nil, promotionalOffer: String? = nil, winBackOffer: String? = nil, at now: Date
    ) throws(LocalStoreError) -> StorePurchase {
        var chain = try chain(original)
        guard chain.kind == .autoRenewable, chain.phase == .expired else {
            throw LocalStoreError(.invalidTransition, "only an expired subscription can be resubscribed (\(original) is \(chain.phase.rawValue))")
        }
        let product = try product(productID ?? chain.productID)
        if let winBackOffer {
            // The offer's price and length for the first period back (OFFER_REDEEMED's win-back type 4).
            guard product.winBackOffers.contains(where: { $0.id == winBackOffer }) else {
                throw LocalStoreError(.unknownProduct, "\(product.id.rawValue) has no win-back offer \(winBackOffer)")
            }
            chain.pendingOffer = (.winBackOffer, winBackOffer)
        } else if let promotionalOffer {
            guard product.promotionalOffers.contains(where: { $0.id == promotionalOffer }) else {
                throw LocalStoreError(.unknownProduct, "\(product.id.rawValue) has no promotional offer \(promotionalOffer)")
            }
            chain.pendingOffer = (.promotionalOffer, promotionalOffer)
        }
        chain.productID = product.id.rawValue
        chain.autoRenewProductID = product.id.rawValue
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
        member.commitment = owner.commitment
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
}

extension StoreSimulator {
    /// The renewal info the app would see now for `original` (StoreKit's `Product.SubscriptionInfo.Status`), signed.
    public func currentRenewalInfo(_ original: String, at now: Date) throws(LocalStoreError) -> String {
        try signer.sign(renewalPayload(try chain(original), signedAt: now))
    }

    /// Apple's status of `original` now (active, expired, billing retry, grace period, revoked).
    public func currentStatus(_ original: String) throws(LocalStoreError) -> Status {
        status(try chain(original))
    }
}
