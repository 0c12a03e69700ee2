import EntitleAPI
import AppStoreModels
import EntitleCore
import EntitleWire
import Foundation

/// Plays a population of app users through a store and a running Entitle server, in simulated time:
/// arrivals start the app-managed trial, buy, renew, cancel, fail billing and recover, get refunded,
/// upgrade and downgrade, share with family, and come back. Every step is what the App Store and an
/// app would really send: the app submits the signed transaction, the store delivers its signed
/// notifications. Events run one at a time in time order with the server's clock set to each.
public struct PopulationSimulation {
    private enum Action {
        case arrive
        case purchase
        case cancel(String)
        case periodEnd(String, expires: Date)
        case recover(String)
        case graceEnd(String)
        case retryEnd(String)
        case refund(String)
        case reverseRefund(String)
        case changeProduct(String, to: String)
        case share(String)
        case resubscribe(String)
        case browse
    }

    private struct Scheduled {
        let date: Date
        let order: Int
        let person: Int
        let action: Action
    }

    private struct Person {
        let appUserID: String
        let accountToken: UUID
        var chains: [String] = []
        /// The offering the person's paywall was served.
        var offeringID: String?
    }

    /// Progress as the simulation goes: the simulated instant and how much has happened.
    public struct Progress: Sendable {
        public let now: Date
        public let events: Int
        public let notifications: Int
    }

    private let plan: PopulationPlan
    private var store: StoreSimulator
    private let delivery: NotificationDelivery
    private let app: SubscriberAPIClient
    private let clock: SimulationClock
    private let start: Date
    private let end: Date
    private var generator: SeededGenerator
    private var paywalls: PaywallPlayer
    private var devices: DevicePlayer
    private var agenda: [Scheduled] = []
    private var order = 0
    private var people: [Person] = []
    private var owners: [String: Int] = [:]
    private var summary: PopulationSummary
    /// Work the server does on a schedule (reconciliation), run every `interval` of simulated time and
    /// once more at the end, before the comparison.
    private var periodic: (interval: TimeInterval, action: (Date) async throws(LocalStoreError) -> Void)?

    /// - Parameters:
    ///   - end: the simulation's last instant; it starts `plan.months` before.
    public init(plan: PopulationPlan, store: StoreSimulator, delivery: NotificationDelivery, app: SubscriberAPIClient, clock: SimulationClock, end: Date) {
        self.plan = plan
        self.store = store
        self.delivery = delivery
        self.app = app
        self.clock = clock
        self.end = end
        self.start = ISODuration(months: -plan.months).added(to: end)
        self.generator = SeededGenerator(seed: plan.seed)
        self.paywalls = PaywallPlayer(seed: plan.seed, catalog: store.catalog)
        self.devices = DevicePlayer(seed: plan.seed, catalog: store.catalog)
        self.summary = PopulationSummary(start: start, end: end)
        self.summary.itemLimit = store.catalog.limits.first
    }

    /// Runs `action` every `interval` of simulated time, and once at the end before comparing.
    public mutating func every(_ interval: TimeInterval, _ action: @escaping (Date) async throws(LocalStoreError) -> Void) {
        periodic = (interval, action)
    }

    /// The first instant of the simulation.
    public static func start(of plan: PopulationPlan, end: Date) -> Date { ISODuration(months: -plan.months).added(to: end) }

    /// Runs the whole population, then reads every subscriber back through the API and compares.
    public mutating func run(progress: (Progress) -> Void = { _ in }) async throws(LocalStoreError) -> PopulationSummary {
        let span = end.timeIntervalSince(start)
        for index in 0..<plan.subscribers {
            var bytes = [UInt8](repeating: 0, count: 16)
            for i in bytes.indices { bytes[i] = UInt8.random(in: 0...255, using: &generator) }
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let token = UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], bytes[8], bytes[9], bytes[10],
                                    bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
            people.append(Person(appUserID: String(format: "user-%05d", index + 1), accountToken: token))
            schedule(start + Double.random(in: 0..<span * 0.95, using: &generator), index, .arrive)
        }
        var events = 0
        var nextPeriodic = periodic.map { start + $0.interval }
        while let next = popNext(), next.date <= end {
            // Stopped (Ctrl-C, shutdown): between two events, whatever the population's size.
            guard !Task.isCancelled else { throw LocalStoreError(.cancelled, "the simulation was stopped at \(next.date)") }
            while let due = nextPeriodic, due <= next.date, let periodic {
                clock.advance(to: due)
                try await periodic.action(due)
                nextPeriodic = due + periodic.interval
            }
            clock.advance(to: next.date)
            do {
                try await perform(next)
            } catch where error.code == .invalidTransition {
                // An event planned earlier no longer applies (e.g. a renewal after a refund).
            }
            events += 1
            if events % 500 == 0 { progress(Progress(now: next.date, events: events, notifications: summary.notifications.delivered)) }
        }
        clock.advance(to: end)
        try await periodic?.action(end)
        progress(Progress(now: end, events: events, notifications: summary.notifications.delivered))
        try await compare()
        return summary
    }

    // MARK: - Behaviour

    private mutating func perform(_ event: Scheduled) async throws(LocalStoreError) {
        let now = event.date
        let person = event.person
        switch event.action {
        case .arrive:
            if store.catalog.appTrial != nil {
                _ = try await Self.api { () async throws(APIClientError) in try await app.startTrial(people[person].appUserID) }
                summary.appTrialsStarted += 1
            }
            let window = store.catalog.appTrial.map { trial in
                trial.length.added(to: now).timeIntervalSince(now) + (trial.grace?.added(to: now).timeIntervalSince(now) ?? 0)
            } ?? 3 * 86_400
            let buys = chance(plan.purchase)
            // The paywall asks the server which offering to show: an experiment running enrols them.
            let served = try await Self.api { () async throws(APIClientError) in try await app.subscriberOfferings(people[person].appUserID) }
            people[person].offeringID = served.currentOfferingID
            let treated = served.experimentID != nil && served.currentOfferingID != store.catalog.defaultOfferingID
            if treated { summary.experimentTreated += 1 } else if served.experimentID != nil { summary.experimentControl += 1 }
            let lifted = !buys && treated && paywalls.chance(plan.experimentLift / max(1 - plan.purchase, 0.01))
            try await report(paywalls.arrival(at: now, buysLater: buys || lifted, offeringID: served.currentOfferingID), person: person)
            try await pairDevices(devices.arrivalCount(), person: person)
            if buys {
                schedule(now + Double.random(in: 0..<window, using: &generator), person, .purchase)
            } else if lifted {
                schedule(now + paywalls.delay(within: window), person, .purchase)
            } else if let delay = paywalls.browseDelay(within: window) {
                schedule(now + delay, person, .browse)
            }
        case .browse:
            try await report(paywalls.browse(at: now, offeringID: people[person].offeringID), person: person)
        case .purchase:
            guard let productID = chooseProduct() else { return }
            try await report(paywalls.purchase(of: productID, at: now, offeringID: people[person].offeringID), person: person)
            let yearly = store.catalog.product(ProductID(productID)).map { $0.kind == .autoRenewable && $0.period == ISODuration(years: 1) } ?? false
            let committed = yearly && chance(plan.monthlyCommitment)
            let purchase = try store.purchase(productID, appAccountToken: people[person].accountToken, at: now, billingPlan: committed ? .monthly : nil)
            if committed { summary.commitmentPurchases += 1 }
            try await began(purchase, person: person, at: now)
            try await pairDevices(1, person: person)
        case .cancel(let original):
            try await deliver(store.setAutoRenew(original, false, at: now))
        case .periodEnd(let original, let expires):
            guard let chain = store.subscription(original), chain.expiresDate == expires, chain.phase == .active else { return }
            if !chain.renewsNext {
                try await deliver(store.expire(original, reason: .voluntary))
                if chance(plan.resubscribe) { schedule(now + days(15...90), person, .resubscribe(original)) }
            } else if chain.offerDiscountType != .freeTrial && chance(plan.billingFailure) {
                try await deliver(store.failRenewal(original))
                try planRecovery(original, person: person, from: now)
            } else {
                try await deliver(store.renew(original))
                summary.renewals += 1
                planPeriod(original, person: person, at: now)
            }
        case .recover(let original):
            guard let chain = store.subscription(original), chain.phase == .gracePeriod || chain.phase == .billingRetry else { return }
            try await deliver(store.renew(original, at: now))
            summary.renewals += 1
            planPeriod(original, person: person, at: now)
        case .graceEnd(let original):
            guard store.subscription(original)?.phase == .gracePeriod else { return }
            try await deliver(store.expireGracePeriod(original, at: now))
        case .retryEnd(let original):
            guard let phase = store.subscription(original)?.phase, phase == .billingRetry || phase == .gracePeriod else { return }
            try await deliver(store.expire(original, reason: .billingRetry, at: now))
        case .refund(let original):
            try await deliver([store.consumptionRequest(original, at: now)])
            let prorated = store.subscription(original)?.kind == .autoRenewable && chance(plan.proratedRefund)
            try await deliver(store.refund(original, prorated: prorated, at: now + 3600))
            summary.refunds += 1
            if prorated { summary.proratedRefunds += 1 }
            if chance(plan.refundReversal) { schedule(now + days(3...14), person, .reverseRefund(original)) }
        case .reverseRefund(let original):
            try await deliver(store.reverseRefund(original, at: now))
            if let chain = store.subscription(original), chain.phase == .active, let expires = chain.expiresDate, chain.kind == .autoRenewable {
                schedule(max(expires, now), person, .periodEnd(original, expires: expires))
            }
        case .changeProduct(let original, let productID):
            guard store.subscription(original)?.phase == .active else { return }
            try await deliver(store.changeProduct(original, to: productID, at: now))
            if let chain = store.subscription(original), chain.productID == productID, let expires = chain.expiresDate {
                schedule(expires, person, .periodEnd(original, expires: expires))
            }
        case .share(let original):
            guard store.subscription(original)?.phase == .active else { return }
            let member = people.count
            people.append(Person(appUserID: people[person].appUserID + "-family", accountToken: UUID()))
            summary.familyMembers += 1
            let shared = try store.shareWithFamily(original, memberAccountToken: people[member].accountToken, at: now)
            _ = try await Self.api { () async throws(APIClientError) in try await app.submit(people[member].appUserID, signedTransaction: shared.signedTransaction) }
            people[member].chains.append(shared.originalTransactionID)
            owners[shared.originalTransactionID] = member
            try await deliver(shared.notifications)
        case .resubscribe(let original):
            guard store.subscription(original)?.phase == .expired else { return }
            let purchase = try store.resubscribe(original, at: now)
            _ = try await Self.api { () async throws(APIClientError) in try await app.submit(people[person].appUserID, signedTransaction: purchase.signedTransaction) }
            try await deliver(purchase.notifications)
            summary.purchases += 1
            planPeriod(original, person: person, at: now)
        }
    }

    /// The person's app pairs `count` devices; the server registers each or refuses it at the limit.
    private mutating func pairDevices(_ count: Int, person: Int) async throws(LocalStoreError) {
        let outcome = try await devices.pair(count, for: people[person].appUserID, app: app)
        summary.devicesRegistered += outcome.registered
        summary.devicesRefused += outcome.refused
    }

    /// What the person's app reports its paywall did.
    private mutating func report(_ events: [PaywallEvent], person: Int) async throws(LocalStoreError) {
        guard !events.isEmpty else { return }
        _ = try await Self.api { () async throws(APIClientError) in try await app.recordPaywallEvents(people[person].appUserID, events: events) }
        summary.paywallEvents += events.count
    }

    /// A first purchase: the app submits its transaction, the store notifies, and its future is planned.
    private mutating func began(_ purchase: StorePurchase, person: Int, at now: Date) async throws(LocalStoreError) {
        _ = try await Self.api { () async throws(APIClientError) in try await app.submit(people[person].appUserID, signedTransaction: purchase.signedTransaction) }
        try await deliver(purchase.notifications)
        summary.purchases += 1
        let original = purchase.originalTransactionID
        people[person].chains.append(original)
        owners[original] = person
        guard let chain = store.subscription(original) else { return }
        if let product = store.catalog.product(ProductID(chain.productID)), product.familyShareable, chance(plan.familySharing) {
            schedule(now + days(0...5), person, .share(original))
        }
        if chain.kind != .autoRenewable {
            if chance(plan.refund) { schedule(now + days(1...10), person, .refund(original)) }
            return
        }
        if chain.offerDiscountType == .freeTrial, let expires = chain.expiresDate {
            if !chance(plan.introductoryTrialConversion) {
                schedule(now + Double.random(in: 0..<expires.timeIntervalSince(now), using: &generator), person, .cancel(original))
            }
            schedule(expires, person, .periodEnd(original, expires: expires))
            return
        }
        planPeriod(original, person: person, at: now)
    }

    /// Plans one paid period: its end, and whether it is cancelled, refunded or changed on the way.
    private mutating func planPeriod(_ original: String, person: Int, at now: Date) {
        guard let chain = store.subscription(original), let expires = chain.expiresDate else { return }
        schedule(expires, person, .periodEnd(original, expires: expires))
        let length = expires.timeIntervalSince(now)
        let months = max(1, length / (30 * 86_400))
        if chain.autoRenew, chance(1 - pow(1 - plan.cancellation, months)) {
            schedule(now + Double.random(in: 0..<length, using: &generator), person, .cancel(original))
        }
        if chance(plan.refund) { schedule(now + days(1...10), person, .refund(original)) }
        if let product = store.catalog.product(ProductID(chain.productID)), let level = product.groupLevel {
            let group = store.catalog.products.filter { $0.kind == .autoRenewable && $0.subscriptionGroupID == product.subscriptionGroupID }
            let higher = group.filter { ($0.groupLevel ?? level) < level && $0.period == product.period }
            let lower = group.filter { ($0.groupLevel ?? level) > level && $0.period == product.period }
            if let target = higher.randomElement(using: &generator), chance(plan.upgrade) {
                schedule(now + Double.random(in: 0..<length, using: &generator), person, .changeProduct(original, to: target.id.rawValue))
            } else if let target = lower.randomElement(using: &generator), chance(plan.downgrade) {
                schedule(now + Double.random(in: 0..<length, using: &generator), person, .changeProduct(original, to: target.id.rawValue))
            }
        }
    }

    /// After a failed renewal: recovered in the grace period, recovered in billing retry, or
    /// expired when Apple stops retrying (60 days).
    private mutating func planRecovery(_ original: String, person: Int, from now: Date) throws(LocalStoreError) {
        guard let chain = store.subscription(original) else { return }
        let graceEnd = chain.gracePeriodExpiresDate
        if chance(plan.billingRecovery) {
            if let graceEnd, chance(0.7) {
                schedule(now + Double.random(in: 0..<graceEnd.timeIntervalSince(now), using: &generator), person, .recover(original))
                return
            }
            if let graceEnd { schedule(graceEnd, person, .graceEnd(original)) }
            schedule((graceEnd ?? now) + days(1...30), person, .recover(original))
            return
        }
        if let graceEnd { schedule(graceEnd, person, .graceEnd(original)) }
        schedule(now + 60 * 86_400, person, .retryEnd(original))
    }

    private mutating func chooseProduct() -> String? {
        let subscriptions = store.catalog.products.filter { $0.kind == .autoRenewable }
        let lifetime = store.catalog.products.filter { $0.kind == .nonConsumable && !$0.entitlementIDs.isEmpty }
        if !lifetime.isEmpty, subscriptions.isEmpty || chance(plan.lifetime) { return lifetime.randomElement(using: &generator)?.id.rawValue }
        return subscriptions.randomElement(using: &generator)?.id.rawValue
    }

    // MARK: - Comparison

    /// A call to the server through the simulated app; a refusal or a failed connection fails the run.
    private static func api<T>(_ call: () async throws(APIClientError) -> T) async throws(LocalStoreError) -> T {
        do {
            return try await call()
        } catch {
            throw LocalStoreError(.deliveryFailed, error.description)
        }
    }

    private mutating func compare() async throws(LocalStoreError) {
        summary.subscribers = people.count
        for person in people {
            let response = try await Self.api { () async throws(APIClientError) in try await app.subscriber(person.appUserID) }
            if response.entitlements.contains(where: \.isActive) { summary.entitledSubscribers += 1 }
            let devices = try await devices.check(response, app: app)
            summary.devicesPaused += devices.paused
            if !devices.consistent { summary.deviceMismatches.append(person.appUserID) }
            if store.catalog.appTrial != nil { summary.appTrialPhases[response.appTrial.phase.rawValue, default: 0] += 1 }
            for original in person.chains {
                guard let chain = store.subscription(original) else { continue }
                let expected = chain.expectedState(at: end)
                let reported = (response.subscriptions + response.purchases).first { $0.originalTransactionID == original }?.state.rawValue ?? "missing"
                summary.expected[expected, default: 0] += 1
                summary.reported[reported, default: 0] += 1
                if expected != reported {
                    summary.mismatches.append(.init(appUserID: person.appUserID, originalTransactionID: original, expected: expected, reported: reported))
                }
            }
        }
    }

    // MARK: - Agenda

    private mutating func deliver(_ notifications: [SignedNotification]) async throws(LocalStoreError) {
        summary.notifications = summary.notifications + (try await delivery.deliver(notifications))
    }

    private mutating func schedule(_ date: Date, _ person: Int, _ action: Action) {
        order += 1
        let item = Scheduled(date: date, order: order, person: person, action: action)
        // A binary heap ordered by (date, order): events at one instant run in the order planned.
        agenda.append(item)
        var child = agenda.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard Self.before(agenda[child], agenda[parent]) else { break }
            agenda.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func popNext() -> Scheduled? {
        guard !agenda.isEmpty else { return nil }
        agenda.swapAt(0, agenda.count - 1)
        let next = agenda.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var first = parent
            if left < agenda.count, Self.before(agenda[left], agenda[first]) { first = left }
            if right < agenda.count, Self.before(agenda[right], agenda[first]) { first = right }
            if first == parent { break }
            agenda.swapAt(parent, first)
            parent = first
        }
        return next
    }

    private static func before(_ a: Scheduled, _ b: Scheduled) -> Bool { (a.date, a.order) < (b.date, b.order) }

    private mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &generator) < probability }

    private mutating func days(_ range: ClosedRange<Double>) -> TimeInterval { Double.random(in: range, using: &generator) * 86_400 }
}
