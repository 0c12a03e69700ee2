#if !canImport(StoreKit)
import AppStoreModels
import EntitleCore
import Foundation
import NIOConcurrencyHelpers
import StoreKitMirror

/// StoreKit's product (the mirror's), beside the catalog's `EntitleCore.Product`.
public typealias StoreKitProduct = StoreKitMirror.Product

/// The local App Store as StoreKit's backend on Linux (StoreKitMirror): one device of one store
/// account. Products come from the catalog; a purchase is played by the ``StoreSimulator`` and returns
/// the transaction it signed, with the chain the server trusts, so what EntitleKit's StoreKit adapter
/// submits is what the App Store would sign. Transactions stay unfinished until the app finishes them
/// and are handed over again at the next launch (a new backend on the same store); refunds, renewals
/// and approvals arrive on `Transaction.updates`. The user's choices on the sheets (Ask to Buy, cancel)
/// are scripted with ``nextPurchase``.
public final class LocalStoreKitBackend: StoreKitMirrorBackend {
    /// What the user does with the next purchase sheet.
    public enum PurchaseChoice: Sendable {
        /// Confirms (the default).
        case confirm
        /// Ask to Buy: the purchase waits for a parent (``approvePending()``).
        case askToBuy
        /// Closes the sheet.
        case cancel
    }

    /// Everything the device and its store account hold.
    struct State {
        var simulator: StoreSimulator
        var nextChoice = PurchaseChoice.confirm
        /// Transactions not yet finished, by ID, signed, in the order they came.
        var unfinished: [(id: UInt64, jws: String)] = []
        /// The account's purchases (their original transaction IDs), in order.
        var originals: [String] = []
        /// Ask-to-Buy purchases waiting for approval.
        var pending: [(productID: String, options: Set<StoreKitProduct.PurchaseOption>)] = []
        var updates: [UUID: AsyncStream<StoreKitMirrorSigned>.Continuation] = [:]
        /// Updates that arrived while no one listened: StoreKit hands them to the next listener.
        var undelivered: [StoreKitMirrorSigned] = []
        /// What the sheets and purchases asked for, for tests to read.
        var purchaseOptions: [Set<StoreKitProduct.PurchaseOption>] = []
        var sheetsShown: [String] = []
        var syncs = 0

        /// The subscription group of a catalog product, or of the product a purchase has now.
        func group(of productID: String) -> String? { simulator.catalog.product(ProductID(rawValue: productID))?.subscriptionGroupID }
        func group(ofPurchase original: String) -> String? { simulator.subscription(original).flatMap { group(of: $0.productID) } }
    }

    let state: NIOLockedValueBox<State>
    let now: @Sendable () -> Date
    /// The notifications the store sends the app's server (wired to a delivery in tests that want them).
    let notify: @Sendable ([SignedNotification]) async -> Void
    /// Apple's checks of the offers the app's server signed (the keys App Store Connect knows); `nil`: the
    /// store takes them unchecked (a configuration with no in-app purchase key).
    let offerCheck: OfferSignatureCheck?

    public convenience init(
        simulator: StoreSimulator, now: @escaping @Sendable () -> Date, offerCheck: OfferSignatureCheck? = nil,
        notify: @escaping @Sendable ([SignedNotification]) async -> Void = { _ in }
    ) {
        self.init(state: State(simulator: simulator), now: now, offerCheck: offerCheck, notify: notify)
    }

    private init(
        state: State, now: @escaping @Sendable () -> Date, offerCheck: OfferSignatureCheck?, notify: @escaping @Sendable ([SignedNotification]) async -> Void
    ) {
        self.state = NIOLockedValueBox(state)
        self.now = now
        self.offerCheck = offerCheck
        self.notify = notify
    }

    /// The same store account on a new launch of the app: its purchases, and its unfinished transactions,
    /// which are handed over again.
    public func relaunched() -> LocalStoreKitBackend {
        let kept = state.withLockedValue { State(simulator: $0.simulator, unfinished: $0.unfinished, originals: $0.originals) }
        return LocalStoreKitBackend(state: kept, now: now, offerCheck: offerCheck, notify: notify)
    }

    /// The user's choice on the next purchase sheet.
    public func nextPurchase(_ choice: PurchaseChoice) { state.withLockedValue { $0.nextChoice = choice } }
    /// The options each purchase asked StoreKit for, in order.
    public var purchaseOptions: [Set<StoreKitProduct.PurchaseOption>] { state.withLockedValue { $0.purchaseOptions } }
    /// The sheets shown (`manageSubscriptions`, `offerCodeRedeem`, `refundRequest`), in order.
    public var sheetsShown: [String] { state.withLockedValue { $0.sheetsShown } }
    /// The IDs of the transactions still unfinished.
    public var unfinishedIDs: [UInt64] { state.withLockedValue { $0.unfinished.map(\.id) } }
    /// The account's purchases (original transaction IDs).
    public var originals: [String] { state.withLockedValue { $0.originals } }

    // MARK: - StoreKitMirrorBackend

    public func products(for identifiers: [String]) async throws -> [StoreKitProduct] {
        let catalog = state.withLockedValue { $0.simulator.catalog }
        return identifiers.compactMap { id in catalog.product(ProductID(rawValue: id)).map { Self.product($0, in: catalog) } }
    }

    public func purchase(_ product: StoreKitProduct, options: Set<StoreKitProduct.PurchaseOption>) async throws -> StoreKitMirrorPurchase {
        let choice = state.withLockedValue { state -> PurchaseChoice in
            state.purchaseOptions.append(options)
            defer { state.nextChoice = .confirm }
            return state.nextChoice
        }
        switch choice {
        case .cancel:
            return .userCancelled
        case .askToBuy:
            state.withLockedValue { $0.pending.append((product.id, options)) }
            return .pending
        case .confirm:
            return .signed(try await buy(product.id, options: options))
        }
    }

    /// A parent approves every Ask-to-Buy purchase waiting: each transaction arrives as an update.
    public func approvePending() async throws {
        let pending = state.withLockedValue { state in
            defer { state.pending = [] }
            return state.pending
        }
        for purchase in pending {
            publish(try await buy(purchase.productID, options: purchase.options))
        }
    }

    /// Apple refunds the purchase `original`: REFUND to the server, the revoked transaction as an update.
    public func refund(_ original: String) async throws {
        let at = now()
        let (notifications, jws) = try state.withLockedValue { state throws in
            let notifications = try state.simulator.refund(original, at: at)
            return (notifications, try state.simulator.currentTransaction(original, at: at))
        }
        await notify(notifications)
        publish(remember(jws))
    }

    /// The subscription `original` renews: DID_RENEW to the server, the renewal as an update.
    public func renew(_ original: String) async throws {
        let at = now()
        let (notifications, jws) = try state.withLockedValue { state throws in
            let notifications = try state.simulator.renew(original, at: at)
            return (notifications, try state.simulator.currentTransaction(original, at: at))
        }
        await notify(notifications)
        publish(remember(jws))
    }

    /// The subscription `original` ends (the user turned renewal off and the period passed).
    public func expire(_ original: String) async throws {
        let at = now()
        let notifications = try state.withLockedValue { state throws in
            let turnedOff = try state.simulator.setAutoRenew(original, false, at: at)
            return turnedOff + (try state.simulator.expire(original, reason: .voluntary, at: at))
        }
        await notify(notifications)
    }

    public func finish(transactionID: UInt64) async {
        state.withLockedValue { $0.unfinished.removeAll { $0.id == transactionID } }
    }

    public func unfinishedTransactions() async -> [StoreKitMirrorSigned] {
        state.withLockedValue { $0.unfinished.map { StoreKitMirrorSigned(jws: $0.jws) } }
    }

    public func currentEntitlements() async -> [StoreKitMirrorSigned] {
        let at = now()
        return state.withLockedValue { state in
            state.originals.compactMap { original -> StoreKitMirrorSigned? in
                guard let chain = state.simulator.subscription(original) else { return nil }
                let entitled = chain.phase != .revoked && (chain.expiresDate.map { at < $0 } ?? true)
                guard entitled, let jws = try? state.simulator.currentTransaction(original, at: at) else { return nil }
                return StoreKitMirrorSigned(jws: jws)
            }
        }
    }

    /// The latest transaction of every purchase the account made, entitled now or not (the store keeps
    /// each purchase's current state, not every renewal: the latest version is what a server needs).
    public func allTransactions() async -> [StoreKitMirrorSigned] {
        let at = now()
        return state.withLockedValue { state in
            state.originals.compactMap { original -> StoreKitMirrorSigned? in
                (try? state.simulator.currentTransaction(original, at: at)).map { StoreKitMirrorSigned(jws: $0) }
            }
        }
    }

    public func transactionUpdates() -> AsyncStream<StoreKitMirrorSigned> {
        let (stream, continuation) = AsyncStream<StoreKitMirrorSigned>.makeStream()
        let id = UUID()
        state.withLockedValue { state in
            for update in state.undelivered { continuation.yield(update) }
            state.undelivered = []
            state.updates[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in self?.state.withLockedValue { _ = $0.updates.removeValue(forKey: id) } }
        return stream
    }

    public func sync() async throws {
        state.withLockedValue { $0.syncs += 1 }
    }

    public func subscriptionStatuses(groupID: String) async throws -> [StoreKitMirrorStatus] {
        let at = now()
        return try state.withLockedValue { state throws in
            var statuses: [StoreKitMirrorStatus] = []
            for original in state.originals {
                guard let chain = state.simulator.subscription(original), chain.kind == .autoRenewable,
                    state.group(of: chain.productID) == groupID
                else { continue }
                statuses.append(StoreKitMirrorStatus(
                    state: Self.renewalState(try state.simulator.currentStatus(original)),
                    transaction: StoreKitMirrorSigned(jws: try state.simulator.currentTransaction(original, at: at)),
                    renewalInfo: try state.simulator.currentRenewalInfo(original, at: at)))
            }
            return statuses
        }
    }

    public func isEligibleForIntroOffer(groupID: String) async -> Bool {
        state.withLockedValue { state in
            !state.originals.contains { original in state.group(ofPurchase: original) == groupID }
        }
    }

    public func showManageSubscriptions(subscriptionGroupID: String?) async throws {
        state.withLockedValue { $0.sheetsShown.append("manageSubscriptions") }
    }

    public func presentOfferCodeRedeemSheet() async throws {
        state.withLockedValue { $0.sheetsShown.append("offerCodeRedeem") }
    }

    public func beginRefundRequest(transactionID: UInt64) async throws -> Transaction.RefundRequestStatus {
        state.withLockedValue { $0.sheetsShown.append("refundRequest") }
        return .success
    }

    // MARK: - The store's side

    /// Plays a confirmed purchase: a first purchase, an upgrade or crossgrade within a group the account
    /// subscribes in, or a return to a group it left (with a win-back offer when asked for).
    private func buy(_ productID: String, options: Set<StoreKitProduct.PurchaseOption>) async throws -> StoreKitMirrorSigned {
        let at = now()
        let bundleID = state.withLockedValue { $0.simulator.bundleID }
        var token: UUID?
        for case .appAccountToken(let value) in options.map(\.kind) { token = value }
        var promotional: String?
        var winBack: String?
        var eligibility: Bool?
        do {
            for option in options {
                switch option.kind {
                case .promotionalOffer(let offerID, let keyID, let nonce, let signature, let timestamp):
                    try offerCheck?.promotionalOffer(
                        offerID: offerID, keyID: keyID, nonce: nonce, timestamp: Int64(timestamp), signature: signature.base64EncodedString(),
                        bundleID: bundleID, productID: productID, appAccountToken: token)
                    promotional = offerID
                case .promotionalOfferJWS(let offerID, let jws):
                    try offerCheck?.promotionalOffer(offerID: offerID, compactJWS: jws, bundleID: bundleID, productID: productID)
                    promotional = offerID
                case .introductoryOfferEligibility(let jws):
                    if let offerCheck {
                        eligibility = try offerCheck.introductoryOfferEligibility(jws, bundleID: bundleID, productID: productID)
                    } else {
                        eligibility = Self.eligibility(jws)
                    }
                case .winBackOffer(let offer):
                    winBack = offer.id
                default: break
                }
            }
        } catch {
            // What StoreKit throws for an offer the App Store doesn't accept.
            throw StoreKitProduct.PurchaseError.invalidOfferSignature
        }
        let (notifications, jws) = try state.withLockedValue { state throws -> ([SignedNotification], String) in
            let sameGroup = state.group(of: productID).flatMap { group in state.originals.last { state.group(ofPurchase: $0) == group } }
            if let original = sameGroup, let chain = state.simulator.subscription(original) {
                if chain.phase == .active {
                    let notifications = try state.simulator.changeProduct(original, to: productID, at: at)
                    return (notifications, try state.simulator.currentTransaction(original, at: at))
                }
                let purchase = try state.simulator.resubscribe(original, productID: productID, promotionalOffer: promotional, winBackOffer: winBack, at: at)
                return (purchase.notifications, purchase.signedTransaction)
            }
            let purchase = try state.simulator.purchase(
                productID, appAccountToken: token, at: at, introductoryOfferEligibility: eligibility, promotionalOffer: promotional)
            state.originals.append(purchase.originalTransactionID)
            return (purchase.notifications, purchase.signedTransaction)
        }
        await notify(notifications)
        return remember(jws)
    }

    /// Keeps a transaction unfinished until the app finishes it.
    private func remember(_ jws: String) -> StoreKitMirrorSigned {
        let signed = StoreKitMirrorSigned(jws: jws)
        if let id = CompactSerialization.unverifiedPayload(of: jws, as: JWSTransactionDecodedPayload.self)?.transactionId.flatMap({ UInt64($0) }) {
            state.withLockedValue { state in
                if !state.unfinished.contains(where: { $0.id == id }) { state.unfinished.append((id, jws)) }
            }
        }
        return signed
    }

    private func publish(_ signed: StoreKitMirrorSigned) {
        state.withLockedValue { state in
            if state.updates.isEmpty { state.undelivered.append(signed) }
            for continuation in state.updates.values { continuation.yield(signed) }
        }
    }

    /// The server's word on the introductory offer read unchecked (no ``offerCheck``): its `allowIntroductoryOffer` claim.
    private static func eligibility(_ jws: String) -> Bool? {
        struct Claims: Decodable { var allowIntroductoryOffer: Bool }
        return CompactSerialization.unverifiedPayload(of: jws, as: Claims.self)?.allowIntroductoryOffer
    }

    static func renewalState(_ status: Status) -> StoreKitProduct.SubscriptionInfo.RenewalState {
        switch status {
        case .active: .subscribed
        case .expired: .expired
        case .billingRetry: .inBillingRetryPeriod
        case .billingGracePeriod: .inGracePeriod
        case .revoked: .revoked
        default: .expired
        }
    }

    static func product(_ product: EntitleCore.Product, in catalog: Catalog) -> StoreKitProduct {
        let subscription = product.subscriptionGroupID.flatMap { group in
            product.period.map { period in
                StoreKitProduct.SubscriptionInfo(
                    subscriptionGroupID: group, subscriptionPeriod: Self.period(period),
                    introductoryOffer: product.introductoryOffer.map { Self.offer($0, type: .introductory, in: catalog) },
                    promotionalOffers: product.promotionalOffers.map { Self.offer($0, type: .promotional, in: catalog) },
                    winBackOffers: product.winBackOffers.map { Self.offer($0, type: .winBack, in: catalog) })
            }
        }
        return StoreKitProduct(
            id: product.id.rawValue, type: Self.type(product.kind), displayName: StoreDisplay.name(of: product),
            description: product.localizations.first?.description ?? "", price: product.price?.amount ?? 0,
            displayPrice: StoreDisplay.price(product.price, in: catalog), isFamilyShareable: product.familyShareable, subscription: subscription)
    }

    static func type(_ kind: ProductKind) -> StoreKitProduct.ProductType {
        switch kind {
        case .autoRenewable: .autoRenewable
        case .nonRenewing: .nonRenewable
        case .nonConsumable: .nonConsumable
        case .consumable: .consumable
        }
    }

    static func period(_ duration: ISODuration) -> StoreKitProduct.SubscriptionPeriod {
        if duration.years > 0 { return .init(value: duration.years, unit: .year) }
        if duration.months > 0 { return .init(value: duration.months, unit: .month) }
        if duration.weeks > 0 { return .init(value: duration.weeks, unit: .week) }
        return .init(value: max(duration.days, 1), unit: .day)
    }

    static func offer(_ offer: SubscriptionOffer, type: StoreKitProduct.SubscriptionOffer.OfferType, in catalog: Catalog) -> StoreKitProduct.SubscriptionOffer {
        let mode: StoreKitProduct.SubscriptionOffer.PaymentMode = switch offer.paymentMode {
        case .freeTrial: .freeTrial
        case .payAsYouGo: .payAsYouGo
        case .payUpFront: .payUpFront
        }
        return StoreKitProduct.SubscriptionOffer(
            id: offer.id, type: type, price: offer.price?.amount ?? 0, displayPrice: StoreDisplay.price(offer.price, in: catalog),
            period: period(offer.period), periodCount: offer.numberOfPeriods, paymentMode: mode)
    }
}

#endif
