import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
import Testing

/// `GET /v1/analytics/funnels`: the funnels the aggregates give equal a recount, written here
/// plainly from the ledger's events as docs/growth.md defines each figure, of a seeded population.
@Suite("Paywall funnels")
struct FunnelsTests {
    static let individual = "com.screentimerewards.individual.monthly"
    static let family = "com.screentimerewards.family.monthly"
    static let start = AnalyticsLedger.at("2026-01-01T00:00:00Z")
    static let from = AnalyticsLedger.at("2026-01-15T00:00:00Z")
    static let to = AnalyticsLedger.at("2026-03-31T23:59:59Z")
    static let day: TimeInterval = 86_400

    /// A seeded population: subscribers arriving over two months, seeing paywalls (several paywalls,
    /// offerings, triggers and features), some buying (directly or through an introductory trial, some
    /// refunded, some family-shared), their events appended in no particular order, some twice.
    static func population(seed: UInt64, subscribers: Int) -> [LedgerEvent] {
        var random = SeededGenerator(seed: seed)
        let apple = AppleFacts(bundleID: "com.screentimerewards.app")
        var events: [LedgerEvent] = []
        var counter = 50_000
        func next() -> Int {
            counter += 1
            return counter
        }
        for index in 0..<subscribers {
            let user = AppUserID("funnel-\(index)")
            let arrival = start.addingTimeInterval(Double.random(in: 0..<(75 * day), using: &random))
            if Bool.random(using: &random) {
                let seed = next()
                events.append(LedgerEvent(
                    id: LedgerEvents.id(seed), appUserID: user, source: .appTrialStart, idempotencyKey: "trial:\(user)", signedDate: arrival,
                    receivedAt: arrival, payload: .appTrialStarted(at: arrival)))
            }
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                let at = arrival.addingTimeInterval(Double.random(in: 0..<(20 * day), using: &random))
                let paywall = ["onboarding", "upgrade-sheet", "settings"].randomElement(using: &random)!
                let offering = ["default", "spring"].randomElement(using: &random)!
                let trigger = [nil, "limit_exceeded", "quota_exhausted"].randomElement(using: &random)!
                let feature = trigger == nil ? nil : ["childDevices", "challenges"].randomElement(using: &random)!
                var kinds: [PaywallEventKind] = [.shown]
                switch Int.random(in: 0..<4, using: &random) {
                case 0: kinds.append(.closed)
                case 1: kinds += [.purchaseStarted, .purchaseCancelled, .closed]
                case 2: kinds += [.purchaseStarted, .purchaseFailed]
                default: kinds += [.purchaseStarted, .purchased]
                }
                for (offset, kind) in kinds.enumerated() {
                    let paywallEvent = PaywallEvent(
                        id: UUID(uuidString: String(format: "10000000-0000-4000-8000-%012x", next()))!, kind: kind,
                        at: at.addingTimeInterval(Double(offset) * 30), offeringID: offering, paywallID: paywall, trigger: trigger,
                        feature: feature, productID: kind.isAboutAProduct ? ProductID(individual) : nil,
                        outcome: kind == .purchaseFailed ? "purchase.network" : nil)
                    let seed = next()
                    events.append(LedgerEvent(
                        id: LedgerEvents.id(seed), appUserID: user, source: .paywall, idempotencyKey: "paywall:\(paywallEvent.id.uuidString)",
                        signedDate: nil, receivedAt: paywallEvent.at, payload: .paywall(paywallEvent)))
                }
            }
            guard Int.random(in: 0..<10, using: &random) < 6 else { continue }
            // A purchase chain, begun before or after the paywalls.
            let original = "F\(index)"
            var at = arrival.addingTimeInterval(Double.random(in: -2 * day..<(25 * day), using: &random))
            let product = Bool.random(using: &random) ? individual : family
            let price: Int64 = product == individual ? 7_990 : 12_990
            let ownership: InAppOwnershipType = Int.random(in: 0..<10, using: &random) == 0 ? .familyShared : .purchased
            var transactions: [JWSTransactionDecodedPayload] = []
            if Bool.random(using: &random) {
                transactions.append(apple.subscription(
                    product, original: original, id: "\(original)-t", purchase: at, expires: at + 7 * day, offer: .introductoryOffer,
                    discount: .freeTrial, ownership: ownership, groupID: "20776E67"))
                at += 7 * day
                // Half the trials lapse.
                if Bool.random(using: &random) { at = .distantFuture }
            }
            var period = 0
            while at < to, period < Int.random(in: 1...3, using: &random) {
                var transaction = apple.subscription(
                    product, original: original, id: "\(original)-\(period)", purchase: at, expires: at + 30 * day,
                    originalPurchase: transactions.first?.purchaseDate ?? at, price: price,
                    reason: transactions.isEmpty ? .purchase : .renewal, ownership: ownership, groupID: "20776E67")
                if Int.random(in: 0..<6, using: &random) == 0 {
                    transaction.revocationDate = at + 3 * day
                    transaction.revocationReason = .other
                    transaction.signedDate = at + 3 * day
                }
                transactions.append(transaction)
                at += 30 * day
                period += 1
            }
            for transaction in transactions {
                events.append(LedgerEvents.appTransaction(next(), appUserID: user, transaction))
                if Bool.random(using: &random) {
                    events.append(LedgerEvents.notification(next(), appUserID: user, type: .subscribed, transaction: transaction))
                }
            }
        }
        // Some events arrive twice (the ledger keeps one), and in no particular order.
        events += events.prefix(40)
        events.shuffle(using: &random)
        return events
    }

    /// The figures of one segment, recounted from the events as docs/growth.md defines them.
    struct Recount: Equatable {
        var impressions = 0, closes = 0, started = 0, cancelled = 0, failed = 0, purchased = 0
        var viewers = 0, trials = 0, paid = 0
        var revenue: [String: Int64] = [:]
    }

    static func recount(_ eventsByUser: [AppUserID: [LedgerEvent]], range: ClosedRange<Date>) -> (segments: [String: Recount], path: [Int]) {
        var segments: [String: Recount] = [:]
        var path = [0, 0, 0, 0]
        for (_, events) in eventsByUser {
            // The latest signed version of each transaction.
            var transactions: [String: JWSTransactionDecodedPayload] = [:]
            var paywallEvents: [UUID: PaywallEvent] = [:]
            var instants: [Date] = []
            for event in events {
                switch event.payload {
                case .paywall(let paywall):
                    paywallEvents[paywall.id] = paywall
                    instants.append(paywall.at)
                case .appTrialStarted(let at):
                    instants.append(at)
                case .transaction(let transaction), .notification(_, _, let transaction?, _):
                    instants.append(transaction.purchaseDate!)
                    if let kept = transactions[transaction.transactionId!], (kept.signedDate ?? .distantPast) >= (transaction.signedDate ?? .distantPast) { continue }
                    transactions[transaction.transactionId!] = transaction
                default:
                    instants.append(event.signedDate ?? event.receivedAt)
                }
            }
            let own = transactions.values.filter { $0.inAppOwnershipType != .familyShared }
            let trialStarts = own.filter { $0.offerDiscountType == .freeTrial }.map { $0.purchaseDate! }
            let paidByChain = Dictionary(grouping: own.filter { $0.offerDiscountType != .freeTrial }, by: { $0.originalTransactionId! })
                .mapValues { $0.sorted { $0.purchaseDate! < $1.purchaseDate! } }

            var firstViews: [String: Date] = [:]
            for event in paywallEvents.values {
                let keys = ["", "paywall:\(event.paywallID)", "offering:\(event.offeringID)", "trigger:\(event.trigger ?? "")", "feature:\(event.feature ?? "")"]
                for key in keys {
                    if event.kind == .shown { firstViews[key] = min(firstViews[key] ?? event.at, event.at) }
                    guard range.contains(event.at) else { continue }
                    switch event.kind {
                    case .shown: segments[key, default: Recount()].impressions += 1
                    case .closed: segments[key, default: Recount()].closes += 1
                    case .purchaseStarted: segments[key, default: Recount()].started += 1
                    case .purchaseCancelled: segments[key, default: Recount()].cancelled += 1
                    case .purchaseFailed: segments[key, default: Recount()].failed += 1
                    case .purchased: segments[key, default: Recount()].purchased += 1
                    }
                }
            }
            for (key, viewed) in firstViews where range.contains(viewed) {
                segments[key, default: Recount()].viewers += 1
                if trialStarts.contains(where: { $0 >= viewed }) { segments[key, default: Recount()].trials += 1 }
                var converted = false
                for chain in paidByChain.values {
                    // A purchase: the chain's first paid period, or one bought (not renewed).
                    guard let first = chain.indices.first(where: { ($0 == 0 || chain[$0].transactionReason == .purchase) && chain[$0].purchaseDate! >= viewed })
                    else { continue }
                    converted = true
                    for transaction in chain[first...] where transaction.revocationDate == nil {
                        segments[key, default: Recount()].revenue[transaction.currency!, default: 0] += transaction.price!
                    }
                }
                if converted { segments[key, default: Recount()].paid += 1 }
            }
            guard let firstSeen = instants.min(), range.contains(firstSeen) else { continue }
            path[0] += 1
            if !firstViews.isEmpty { path[1] += 1 }
            if !trialStarts.isEmpty { path[2] += 1 }
            if !paidByChain.isEmpty { path[3] += 1 }
        }
        return (segments, path)
    }

    @Test("every figure equals a recount from the ledger's events", arguments: StorageEngine.databases)
    func recounted(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let events = Self.population(seed: 52, subscribers: 150)
            // One batch (as an import appends): its outcomes are those of appending one by one.
            _ = try await harness.store.append(contentsOf: events)
            harness.clock.set(AnalyticsLedger.at("2026-04-01T08:00:00Z"))
            let response = try await harness.get(client, "/v1/analytics/funnels?from=2026-01-15&to=2026-03-31", key: ServerHarness.secretKey)
            let report = try ServerHarness.decode(FunnelReport.self, response)

            let users = Set(events.compactMap(\.appUserID))
            var stored: [AppUserID: [LedgerEvent]] = [:]
            for user in users { stored[user] = try await harness.store.events(appUserID: user) }
            let (expected, path) = Self.recount(stored, range: Self.from...Self.to)

            var reported: [String: Recount] = [:]
            for row in report.segments where row.impressions > 0 || row.viewers > 0 {
                let key = row.dimension == "all" ? "" : "\(row.dimension):\(row.value)"
                reported[key] = Recount(
                    impressions: Int(row.impressions), closes: Int(row.closes), started: Int(row.purchasesStarted),
                    cancelled: Int(row.purchasesCancelled), failed: Int(row.purchasesFailed), purchased: Int(row.purchased),
                    viewers: Int(row.viewers), trials: Int(row.trialConversions), paid: Int(row.paidConversions), revenue: row.revenue)
            }
            #expect(reported == expected)
            #expect([report.path.arrivals, report.path.sawPaywall, report.path.trials, report.path.paid].map(Int.init) == path)
            // The population exercises every figure.
            let all = try #require(expected[""])
            #expect(all.viewers > 20 && all.trials > 0 && all.paid > 0 && !all.revenue.isEmpty && all.closes > 0)
            #expect(expected.keys.contains("trigger:") && expected.keys.contains("feature:childDevices"))
            // The months add up to the whole.
            #expect(report.months.map(\.paywalls.impressions).reduce(0, +) == Int64(all.impressions))
            #expect(report.months.map(\.path.arrivals).reduce(0, +) == Int64(path[0]))
        }
    }
}
