import EntitleCore
import Foundation

/// What the simulated apps' paywalls do, as EntitleKit would report it: an onboarding paywall at
/// first launch, a paywall opened at a gate (a limit or a quota of the catalog) when someone buys,
/// and browsing that ends without buying. Its own random sequence, so the population's other choices
/// are the same with or without paywalls.
struct PaywallPlayer {
    private var generator: SeededGenerator
    private let catalog: Catalog
    private var next: UInt64 = 0
    private let seed: UInt64

    init(seed: UInt64, catalog: Catalog) {
        self.seed = seed
        self.generator = SeededGenerator(seed: seed ^ 0x5057_4C4C)
        self.catalog = catalog
    }

    /// At first launch: most apps show their onboarding paywall, and most people close it.
    mutating func arrival(at now: Date, buysLater: Bool, offeringID: String? = nil) -> [PaywallEvent] {
        let offering = offeringID ?? catalog.defaultOfferingID
        guard chance(0.85) else { return [] }
        var events = [event(offering, .shown, at: now, paywall: "onboarding")]
        if !buysLater, chance(0.25), let product = anyProduct() {
            events += [event(offering, .purchaseStarted, at: now + 20, paywall: "onboarding", product: product),
                       event(offering, .purchaseCancelled, at: now + 40, paywall: "onboarding", product: product)]
        }
        events.append(event(offering, .closed, at: now + 60, paywall: "onboarding"))
        return events
    }

    /// A purchase of `productID`: the paywall it was bought from, opened at one of the catalog's
    /// gates or from the app's settings; now and then a failed first attempt.
    mutating func purchase(of productID: String, at now: Date, offeringID: String? = nil) -> [PaywallEvent] {
        let offering = offeringID ?? catalog.defaultOfferingID
        let (paywall, trigger, feature) = opening()
        let product = ProductID(productID)
        var events = [event(offering, .shown, at: now - 120, paywall: paywall, trigger: trigger, feature: feature),
                      event(offering, .purchaseStarted, at: now - 90, paywall: paywall, trigger: trigger, feature: feature, product: product)]
        if chance(0.1) {
            events += [event(offering, .purchaseFailed, at: now - 80, paywall: paywall, trigger: trigger, feature: feature, product: product, outcome: "purchase.network"),
                       event(offering, .purchaseStarted, at: now - 60, paywall: paywall, trigger: trigger, feature: feature, product: product)]
        }
        events.append(event(offering, .purchased, at: now, paywall: paywall, trigger: trigger, feature: feature, product: product))
        return events
    }

    /// Someone who hasn't bought runs into a gate: the paywall, and no purchase.
    mutating func browse(at now: Date, offeringID: String? = nil) -> [PaywallEvent] {
        let offering = offeringID ?? catalog.defaultOfferingID
        let (paywall, trigger, feature) = opening()
        var events = [event(offering, .shown, at: now, paywall: paywall, trigger: trigger, feature: feature)]
        if chance(0.3), let product = anyProduct() {
            events += [event(offering, .purchaseStarted, at: now + 30, paywall: paywall, trigger: trigger, feature: feature, product: product),
                       event(offering, .purchaseCancelled, at: now + 45, paywall: paywall, trigger: trigger, feature: feature, product: product)]
        }
        events.append(event(offering, .closed, at: now + 60, paywall: paywall, trigger: trigger, feature: feature))
        return events
    }

    /// A moment within `window`, in seconds.
    mutating func delay(within window: TimeInterval) -> TimeInterval {
        Double.random(in: 0..<max(window, 1), using: &generator)
    }

    /// When to browse, seconds after `now`, within `window`; `nil` when the person never does.
    mutating func browseDelay(within window: TimeInterval) -> TimeInterval? {
        guard chance(0.5), window > 0 else { return nil }
        return Double.random(in: 0..<window, using: &generator)
    }

    /// Where a paywall opens: at a limit or a quota of the catalog, or from the app's settings.
    private mutating func opening() -> (String, String?, String?) {
        var gates: [(String, String?, String?)] = [("settings", nil, nil)]
        gates += catalog.limits.map { ("upgrade-sheet", "limit_exceeded", $0) }
        gates += catalog.quotas.map { ("upgrade-sheet", "quota_exhausted", $0.name) }
        return gates.randomElement(using: &generator) ?? ("settings", nil, nil)
    }

    private mutating func anyProduct() -> ProductID? {
        catalog.products.filter { !$0.entitlementIDs.isEmpty }.randomElement(using: &generator)?.id
    }

    private mutating func event(
        _ offering: String, _ kind: PaywallEventKind, at: Date, paywall: String, trigger: String? = nil, feature: String? = nil, product: ProductID? = nil,
        outcome: String? = nil
    ) -> PaywallEvent {
        next += 1
        // IDs from the seed and a counter: the same plan reports the same events.
        let id = UUID(uuidString: String(format: "%08X-0000-4000-8000-%012llX", UInt32(truncatingIfNeeded: seed), next)) ?? UUID()
        return PaywallEvent(
            id: id, kind: kind, at: at, offeringID: offering, paywallID: paywall, trigger: trigger, feature: feature,
            productID: kind.isAboutAProduct ? product : nil, outcome: outcome)
    }

    mutating func chance(_ probability: Double) -> Bool { Double.random(in: 0..<1, using: &generator) < probability }
}
