import EntitleAPI
import EntitleCore
import EntitleWire
import Foundation

/// The app's view of one user's subscriptions: who the user is (an app user ID, or an anonymous one kept
/// on the device until they log in), what they are entitled to (from the server, or from a signed cache
/// when offline), and their metered usage (queued while offline, sent once).
public actor Entitle {
    public let configuration: EntitleConfiguration
    private(set) var api: SubscriberAPIClient
    private let subscriberKeys: SubscriberKeyFile
    let cache: CustomerInfoCache
    /// Purchases granted provisionally (the app's policy) until the server confirms them.
    let provisional: ProvisionalGrantFile
    let usage: DiskQueue<QueuedUse>
    let paywallEvents: DiskQueue<QueuedPaywallEvent>
    /// The current app user ID: the one configured, one logged in, or the device's anonymous ID.
    public private(set) var appUserID: String
    private var updates: [UUID: AsyncStream<CustomerInfo>.Continuation] = [:]
    private var listener: Task<Void, Never>?
    /// The last offerings served, and to whom: an experiment or targeting may serve another user others.
    var offeringsCache: (appUserID: String, offerings: Offerings)?

    /// - Parameters:
    ///   - configuration: the server, the app key, the server's public key and the cache folder.
    ///   - appUserID: the signed-in user's ID; `nil` for the user this device last logged in (kept in the
    ///     cache folder), else the device's anonymous ID (made once, kept there too).
    public init(configuration: EntitleConfiguration, appUserID: String? = nil) throws(EntitleError) {
        if let appUserID, let problem = AppUserID(appUserID).problem { throw EntitleError(.invalidRequest, problem) }
        self.configuration = configuration
        self.api = SubscriberAPIClient(
            baseURL: configuration.serverURL, key: configuration.apiKey, app: configuration.app, transport: configuration.transport)
        self.cache = try CustomerInfoCache(
            folder: configuration.cacheFolder, publicKey: configuration.serverPublicKey, maximumAge: configuration.maximumCacheAge)
        self.usage = DiskQueue(file: configuration.cacheFolder.appendingPathComponent("usage-queue.json")) {
            $0.idempotencyKey == $1.idempotencyKey && $0.feature == $1.feature
        }
        self.paywallEvents = DiskQueue(file: configuration.cacheFolder.appendingPathComponent("paywall-events.json")) { $0.event.id == $1.event.id }
        self.subscriberKeys = SubscriberKeyFile(folder: configuration.cacheFolder)
        self.provisional = ProvisionalGrantFile(folder: configuration.cacheFolder)
        if let appUserID = appUserID ?? Self.loggedInUser(in: configuration.cacheFolder) {
            self.appUserID = appUserID
            // A user who logged in with a token is reached with the key that log-in returned.
            if let key = subscriberKeys.load(appUserID: appUserID) { api = api.using(key: key) }
        } else {
            self.appUserID = try Self.anonymousID(in: configuration.cacheFolder)
        }
    }

    /// Whether the current user is the device's anonymous one.
    public var isAnonymous: Bool { AppUserID(appUserID).isAnonymous }

    /// The customer info by `fetchPolicy`; from the server it is verified and cached, from the cache it
    /// says so and how old it is.
    public func customerInfo(fetchPolicy: FetchPolicy = .cachedOrFetched) async throws(EntitleError) -> CustomerInfo {
        let now = configuration.now()
        let cached = cache.load(appUserID: appUserID, now: now).map {
            withProvisionalGrants(CustomerInfo(response: $0, source: .cache, age: now.timeIntervalSince($0.serverTime)), at: now)
        }
        switch fetchPolicy {
        case .cacheOnly:
            guard let cached else { throw EntitleError(.noTrustedCustomerInfo, "no trusted customer info is cached for \(appUserID)") }
            return cached
        case .cachedOrFetched:
            if let cached { return cached }
        case .notStaleCachedOrFetched(let maximumAge):
            if let cached, cached.age <= maximumAge { return cached }
        case .fetchCurrent:
            break
        }
        do {
            return try await fetch()
        } catch where error.code == .network {
            if let cached { return cached }
            throw EntitleError(.noTrustedCustomerInfo, "the server can't be reached and nothing trusted is cached: \(error.message)")
        }
    }

    /// Updates of the customer info, each time it is fetched.
    public func customerInfoUpdates() -> AsyncStream<CustomerInfo> {
        let id = UUID()
        let (stream, continuation) = AsyncStream<CustomerInfo>.makeStream()
        updates[id] = continuation
        continuation.onTermination = { [weak self] _ in Task { await self?.removeUpdates(id) } }
        return stream
    }

    private func removeUpdates(_ id: UUID) { updates[id] = nil }

    /// The user signed in as `knownID`: the anonymous subscriber merges into it on the server (purchases,
    /// trial, usage), and from now on this instance is that user's.
    @discardableResult
    public func logIn(_ knownID: String) async throws(EntitleError) -> CustomerInfo {
        try await logIn(knownID, token: nil)
    }

    /// The user signed in as `knownID`, and the app's backend vouches for it with `token`, a short-lived
    /// log-in token it signed (docs/identity.md). Needed when the app reaches its users with
    /// per-subscriber keys, or when its entitlements file asks app keys for it; the server then returns
    /// the user's own key, which this instance uses (and keeps in the cache folder) from now on.
    @discardableResult
    public func logIn(token: String, as knownID: String) async throws(EntitleError) -> CustomerInfo {
        try await logIn(knownID, token: token)
    }

    private func logIn(_ knownID: String, token: String?) async throws(EntitleError) -> CustomerInfo {
        if let problem = AppUserID(knownID).problem { throw EntitleError(.invalidRequest, problem) }
        guard !AppUserID(knownID).isAnonymous else { throw EntitleError(.invalidRequest, "log in with the app's own user ID") }
        guard knownID != appUserID else { return try await customerInfo(fetchPolicy: .fetchCurrent) }
        try await flushUsage()
        // The token is presented by logging the device's anonymous ID in: a known user switching
        // accounts signs out first.
        if token != nil, !isAnonymous { try logOut() }
        let answer: SubscriberAPIClient.SignedAnswer
        var client = api
        var ownKey: String?
        do {
            if isAnonymous {
                ownKey = try await api.logIn(appUserID, as: knownID, logInToken: token).subscriberKey
                if let ownKey { client = api.using(key: ownKey) }
            }
            answer = try await client.signedSubscriber(knownID, accessPeriods: true)
        } catch {
            throw Self.error(error)
        }
        if let ownKey { try subscriberKeys.store(ownKey, appUserID: knownID) }
        api = client
        appUserID = knownID
        try Self.write(knownID, to: Self.userFile(in: configuration.cacheFolder))
        return try accept(answer)
    }

    /// The user signed out: this instance becomes a new anonymous user's; nothing of the previous one is kept.
    public func logOut() throws(EntitleError) {
        cache.remove(appUserID: appUserID)
        subscriberKeys.remove(appUserID: appUserID)
        api = api.using(key: configuration.apiKey)
        let fresh = AppUserID.newAnonymous().rawValue
        try Self.write(fresh, to: configuration.cacheFolder.appendingPathComponent("anonymous-id"))
        try? FileManager.default.removeItem(at: Self.userFile(in: configuration.cacheFolder))
        appUserID = fresh
    }

    /// Records `amount` uses of the metered `feature` (once, by `idempotencyKey`): the server's count
    /// after it, or, offline, the use waits in a queue on disk and is sent when the server is reachable
    /// again (earlier queued uses go first).
    /// - Throws: ``EntitleError`` with the server's code when it refuses the use (`usage.quotaExhausted`
    ///   when the quota is spent, `usage.unknownFeature`, `usage.notMetered`); `request.invalid` for
    ///   input no server would take, before any request.
    @discardableResult
    public func recordUsage(_ feature: String, amount: Int = 1, idempotencyKey: String = UUID().uuidString) async throws(EntitleError) -> UsageResult {
        guard !feature.isEmpty else { throw EntitleError(.invalidRequest, "name the metered feature") }
        if let problem = UsageRecord.problem(amount: amount, idempotencyKey: idempotencyKey) { throw EntitleError(.invalidRequest, problem) }
        let item = QueuedUse(appUserID: appUserID, feature: feature, amount: amount, idempotencyKey: idempotencyKey)
        usage.enqueue(item)
        let sent = await send(usage.items())
        if let refused = sent.refused.first(where: { $0.idempotencyKey == item.idempotencyKey && $0.appUserID == item.appUserID }) {
            try? await report(sent.refused.filter { $0 != refused }, counted: !sent.counted.isEmpty)
            throw refused.error
        }
        try? await report(sent.refused, counted: !sent.counted.isEmpty)
        if let answer = sent.counted[item] { return .counted(Access(answer)) }
        return .queued(pending: usage.items().count)
    }

    /// Uses still waiting for the network.
    public var pendingUsage: Int { usage.items().count }

    /// Sends the queued uses, in order; each leaves the queue once the server counted it or refused it
    /// for good. Refusals are reported through ``customerInfoUpdates()`` (``CustomerInfo/refusedUses``),
    /// with an answer that counts what the server counted, and returned.
    /// - Throws: ``EntitleError`` `network` when the server can't be reached; the rest stays queued.
    @discardableResult
    public func flushUsage() async throws(EntitleError) -> [RefusedUse] {
        let sent = await send(usage.items())
        try? await report(sent.refused, counted: !sent.counted.isEmpty)
        if let failure = sent.failure { throw failure }
        return sent.refused
    }

    /// Sends `items` in order, until the network fails.
    private func send(_ items: [QueuedUse]) async -> (counted: [QueuedUse: AccessResponse], refused: [RefusedUse], failure: EntitleError?) {
        var counted: [QueuedUse: AccessResponse] = [:]
        var refused: [RefusedUse] = []
        for item in items {
            do {
                counted[item] = try await api.recordUsage(item.appUserID, feature: item.feature, amount: item.amount, idempotencyKey: item.idempotencyKey)
                usage.remove([item])
            } catch {
                let failure = Self.error(error)
                // Still to send: the network, or a server that may take it later.
                if failure.isRetryable { return (counted, refused, failure) }
                usage.remove([item])
                refused.append(RefusedUse(
                    appUserID: item.appUserID, feature: item.feature, amount: item.amount, idempotencyKey: item.idempotencyKey, error: failure))
            }
        }
        return (counted, refused, nil)
    }

    /// After uses were sent: the server's signed answer is fetched again when it counted some (so the
    /// cached answer ``access(_:usage:fetchPolicy:)`` decides from counts them: the server's count, never a
    /// local tally) or refused some (the listeners are told, with that answer).
    private func report(_ refused: [RefusedUse], counted: Bool) async throws(EntitleError) {
        guard !refused.isEmpty || counted else { return }
        let answer: SubscriberAPIClient.SignedAnswer
        do {
            answer = try await api.signedSubscriber(appUserID, accessPeriods: true)
        } catch {
            throw Self.error(error)
        }
        _ = try accept(answer, refused: refused)
    }

    /// Records the app's first launch, which starts its trial (seed 004's 30 days from first launch):
    /// the server keeps the first one it hears of, at its own time, so calling it at every launch is
    /// right. The answer's ``CustomerInfo/appTrial`` shows the trial (phase, end, lockout)
    /// and each access period its phase.
    @discardableResult
    public func recordFirstLaunch() async throws(EntitleError) -> CustomerInfo {
        do {
            _ = try await api.startTrial(appUserID)
        } catch {
            throw Self.error(error)
        }
        return try await fetch()
    }

    // MARK: - Purchases

    /// Buys `productID` through the configured store with the user's appAccountToken, sends the signed
    /// transaction to the server, and finishes it only once the server stored it.
    /// - Parameters:
    ///   - productID: the product to buy.
    ///   - promotionalOfferID: a promotional offer of the product to redeem: the server signs it for this
    ///     user first (``PurchaseOutcome/notAllowed(_:)`` when the catalog's rule leaves them out,
    ///     ``PurchaseOutcome/productUnavailable(_:)`` for an offer the product doesn't have).
    ///   - winBackOfferID: a win-back offer Apple lists for this user (the offerings'
    ///     `eligibleWinBackOfferIDs`); the store applies it (iOS 18 and later).
    public func purchase(_ productID: String, promotionalOfferID: String? = nil, winBackOfferID: String? = nil) async -> PurchaseOutcome {
        guard let store = configuration.store else { return .storeUnavailable("no store is configured") }
        var options = PurchaseOptions(winBackOfferID: winBackOfferID)
        if let promotionalOfferID {
            do {
                let offer = try await api.promotionalOffer(appUserID, productID: productID, offerID: promotionalOfferID)
                options.appAccountToken = offer.appAccountToken
                options.promotionalOffer = SignedPromotionalOffer(offer)
            } catch {
                switch error.serverCode {
                case "offer.notEligible": return .notAllowed(error.message)
                case "offer.unknown", "purchase.unknownProduct": return .productUnavailable(error.message)
                default:
                    if error.code == .network { return .networkError(error.message) }
                    return .storeUnavailable("\(error.serverCode ?? "refused"): \(error.message)")
                }
            }
        } else {
            // The server's word on what the user has now: buying a product they already have active
            // (seed 002: "user already has active subscription") charges nothing and changes nothing.
            let info = try? await customerInfo(fetchPolicy: .notStaleCachedOrFetched(maximumAge: 60))
            options.appAccountToken = info?.appAccountToken
            if let info, Self.hasActive(productID, in: info.response, at: configuration.now()) { return .alreadySubscribed(info) }
        }
        // The server's signed eligibility for the introductory offer, from the offerings this user is served.
        options.introductoryOfferEligibility = (try? await offerings())?.package(productID)?.introductoryOfferEligibilityJWS
        let result: StorePurchaseResult
        do {
            result = try await store.purchase(productID, options: options)
        } catch {
            switch error.kind {
            case .storeUnavailable: return .storeUnavailable(error.message)
            case .productUnavailable: return .productUnavailable(error.message)
            case .notAllowed, .offerRefused: return .notAllowed(error.message)
            case .verificationFailed: return .verificationFailed(error.message)
            case .cancelled: return .cancelled
            }
        }
        switch result {
        case .cancelled:
            return .cancelled
        case .pending:
            _ = try? await api.reportPendingPurchase(appUserID, productID: productID)
            return .pending
        case .purchased(let transaction):
            return await deliver(transaction, through: store, claim: true)
        }
    }

    /// Whether the user's own purchase of `productID` grants access now (not a family member's share: that
    /// one they may still want to buy for themselves), at `now`: a cached answer's period must not have ended.
    static func hasActive(_ productID: String, in subscriber: SubscriberResponse, at now: Date) -> Bool {
        // Which states grant access is EntitleCore's rule (`SubscriptionState.isEntitled`), the server's too.
        return (subscriber.subscriptions + subscriber.purchases).contains {
            $0.productID == productID && !$0.isFamilyShared && SubscriptionState(rawValue: $0.state.rawValue)?.isEntitled == true
                && ((($0.state == .gracePeriod ? $0.gracePeriodExpiresAt : $0.expiresAt).map { now < $0 }) ?? true)
        }
    }

    /// Sends a signed transaction to the server (again, with back-off, while it can't be reached) and
    /// finishes it in the store once stored. `claim`: the user bought or restored it on this device, so
    /// under the server's `transfer` policy it moves to them; a background update (`false`) never moves a
    /// purchase another subscriber owns, and is finished all the same (the server has it through Apple).
    /// `answering`: the customer info fetched after it (a sync of many sends it once, at the end); without,
    /// a stored transaction answers `.success` with the cached info.
    func deliver(_ transaction: SignedTransaction, through store: any PurchaseStore, claim: Bool, answering: Bool = true) async -> PurchaseOutcome {
        var delay = configuration.retryDelay
        for attempt in 0...max(0, configuration.submitRetries) {
            do {
                _ = try await api.submit(appUserID, signedTransaction: transaction.jws, transfer: claim)
                await store.finish(transaction)
                if !answering, let cached = cache.load(appUserID: appUserID, now: configuration.now()) {
                    return .success(CustomerInfo(response: cached, source: .cache, age: configuration.now().timeIntervalSince(cached.serverTime)))
                }
                do {
                    return .success(try await fetch())
                } catch {
                    return .networkError(error.message)
                }
            } catch where error.code == .network {
                guard attempt < configuration.submitRetries else {
                    if claim, let info = grantProvisionally(transaction) { return .success(info) }
                    return .networkError(error.message)
                }
                let jitter = Double.random(in: 0.5...1.5)
                try? await Task.sleep(for: delay * jitter)
                delay *= 2
            } catch {
                // Refused: whatever it granted provisionally is withdrawn.
                withdrawProvisionalGrant(transaction.transactionID)
                if error.serverCode == "purchase.ownedByAnotherSubscriber" {
                    if !claim { await store.finish(transaction) }
                    return .notAllowed(error.message)
                }
                return .verificationFailed("\(error.serverCode ?? "refused"): \(error.message)")
            }
        }
        return .networkError("the server could not be reached")
    }

    /// Starts delivering the store's transaction updates (renewals, refunds, revocations, approvals,
    /// purchases elsewhere, unfinished ones) to the server; each finished once stored.
    public func startTransactionUpdates() {
        guard listener == nil, let store = configuration.store else { return }
        listener = Task { [weak self] in
            for await transaction in store.transactionUpdates() {
                guard let self else { return }
                _ = await self.deliver(transaction, through: store, claim: false)
            }
        }
    }

    public func stopTransactionUpdates() {
        listener?.cancel()
        listener = nil
    }

    /// Restores: the store syncs, every current entitlement it signs is sent to the server, and the
    /// customer info is fetched. ``RestoreOutcome/nothingToRestore(_:)`` when no entitlement then comes
    /// from an active purchase (its ``RestoreOutcome/message``: "No active subscriptions found.").
    public func restore() async throws(EntitleError) -> RestoreOutcome {
        guard let store = configuration.store else { throw EntitleError(.invalidRequest, "no store is configured") }
        let current: [SignedTransaction]
        do {
            try await store.sync()
            current = try await store.currentEntitlements()
        } catch {
            throw EntitleError(.network, "the store could not restore: \(error.message)")
        }
        for transaction in current {
            if case .networkError(let message) = await deliver(transaction, through: store, claim: true) { throw EntitleError(.network, message) }
        }
        let info = try await fetch()
        let purchased = info.activeEntitlements(at: configuration.now()).contains { $0.source == .purchase }
        return purchased ? .restored(info) : .nothingToRestore(info)
    }

    /// May the user do `feature` now (`usage`: how many a limit would be at, how much a quota use
    /// consumes)? Decided by EntitleCore's `AccessGate` — the function the server answers
    /// `GET …/access/{feature}` with — on the gate the server signed for the period that contains now
    /// (fetched, or cached when offline), so an entitlement that has expired since is already accounted
    /// for. Uses still queued count against their quota. A purchase granted provisionally (the app's
    /// `provisionalGrantHours`, verified while the server couldn't be reached) adds its product's access
    /// level, as the server signed it, until the server confirms or refuses it.
    public func access(_ feature: String, usage: Int = 1, fetchPolicy: FetchPolicy = .cachedOrFetched) async throws(EntitleError) -> Access {
        guard !feature.isEmpty else { throw EntitleError(.invalidRequest, "name a feature, limit or quota") }
        guard (0...AccessGate.maximumUsage).contains(usage) else {
            throw EntitleError(.invalidRequest, "usage is a whole number from 0 to \(AccessGate.maximumUsage)")
        }
        let info = try await customerInfo(fetchPolicy: fetchPolicy)
        let now = configuration.now()
        guard let gate = info.gate(at: now) else {
            throw EntitleError(.noTrustedCustomerInfo, "the customer info does not say what is allowed at \(now)")
        }
        let granted = gate.granting(provisionalAccess(info, at: now))
        return Access(AccessResponse(granted.decide(feature, usage: usage, pendingUse: queuedUsage(of: feature)), serverTime: info.serverTime))
    }

    /// Uses of `feature` still waiting in the queue.
    private func queuedUsage(of feature: String) -> Int {
        usage.items().filter { $0.feature == feature && $0.appUserID == appUserID }.reduce(0) { $0 + $1.amount }
    }

    // MARK: - Internals

    /// The queued uses sent first, then the signed answer, which counts them and carries their refusals.
    private func fetch() async throws(EntitleError) -> CustomerInfo {
        let sent = await send(usage.items())
        _ = try? await flushPaywallEvents()
        let answer: SubscriberAPIClient.SignedAnswer
        do {
            answer = try await api.signedSubscriber(appUserID, accessPeriods: true)
        } catch {
            throw Self.error(error)
        }
        return try accept(answer, refused: sent.refused)
    }

    /// Verifies a server answer, caches it, and tells the listeners.
    private func accept(_ answer: SubscriberAPIClient.SignedAnswer, refused: [RefusedUse] = []) throws(EntitleError) -> CustomerInfo {
        guard let signature = answer.signature, cache.verifies(answer.body, signature: signature) else {
            throw EntitleError(.unsignedAnswer, "the server's answer is not signed with the configured key")
        }
        try? cache.store(answer.body, signature: signature, appUserID: answer.response.appUserID)
        var info = withProvisionalGrants(CustomerInfo(response: answer.response, source: .server, age: 0), at: configuration.now())
        info.refusedUses = refused
        for continuation in updates.values { continuation.yield(info) }
        return info
    }

    /// The device's anonymous ID, kept in the cache folder; made again when the file holds no valid one.
    private static func anonymousID(in folder: URL) throws(EntitleError) -> String {
        let file = folder.appendingPathComponent("anonymous-id")
        if let existing = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines),
            AppUserID(existing).isAnonymous, AppUserID(existing).problem == nil
        {
            return existing
        }
        let fresh = AppUserID.newAnonymous().rawValue
        try write(fresh, to: file)
        return fresh
    }

    /// The file naming the user this device logged in (absent while anonymous).
    private static func userFile(in folder: URL) -> URL { folder.appendingPathComponent("current-user") }

    /// The user this device last logged in, if the file names a valid known one.
    private static func loggedInUser(in folder: URL) -> String? {
        guard let text = try? String(contentsOf: userFile(in: folder), encoding: .utf8) else { return nil }
        let id = AppUserID(text.trimmingCharacters(in: .newlines))
        return id.problem == nil && !id.isAnonymous ? id.rawValue : nil
    }

    private static func write(_ text: String, to file: URL) throws(EntitleError) {
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file, options: .atomic)
        } catch {
            throw EntitleError(.invalidRequest, "the cache folder \(file.deletingLastPathComponent().path) can't be written: \(error)")
        }
    }

    static func error(_ error: APIClientError) -> EntitleError {
        error.code == .network
            ? EntitleError(.network, error.message)
            : EntitleError(.refused, error.message, serverCode: error.serverCode ?? error.status.map { "http.\($0)" }, status: error.status)
    }
}
