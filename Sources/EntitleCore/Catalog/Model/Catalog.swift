import Foundation

/// An app's catalog: its products as the `.storekit` file defines them, and what they grant as its
/// entitlements file defines it. Immutable once loaded; ``CatalogLoader`` builds it.
public struct Catalog: Hashable, Sendable {
    public var appName: String?
    public var bundleID: BundleID?
    /// The app's Apple ID in App Store Connect, when the entitlements file gives it.
    public var appAppleID: Int64?
    /// The environments the entitlements file accepts (`production`, `sandbox`, `xcode`,
    /// `local-testing`); empty when it doesn't say.
    public var environments: [String]
    /// Whether app keys reach the app's subscribers (the entitlements file's `appKeys`, default true).
    public var acceptsAppKeys: Bool = true
    /// The backend's log-in token keys (the entitlements file's `logInTokens`), when it signs them.
    public var logInTokens: LogInTokenPolicy?
    /// Who each promotional offer is signed for, by offer ID; an offer not listed is for
    /// ``PromotionalOfferEligibility/subscribers``.
    public var promotionalOfferEligibility: [String: PromotionalOfferEligibility] = [:]
    /// Set when the app answers CONSUMPTION_REQUEST notifications with Send Consumption Information.
    public var consumptionPolicy: ConsumptionPolicy?
    public var storefront: String?
    public var currency: String?
    /// Products sorted by identifier.
    public var products: [Product]
    public var subscriptionGroups: [SubscriptionGroup]
    /// Declared features, sorted.
    public var features: [String]
    /// Declared numeric limits, sorted.
    public var limits: [String]
    /// Declared metered quotas, sorted by name.
    public var quotas: [QuotaDefinition]
    /// Entitlements sorted by identifier.
    public var entitlements: [Entitlement]
    /// What every subscriber has with no entitlement.
    public var free: AccessLevel
    public var appTrial: AppTrialPolicy?
    /// The offerings a paywall may show, as the entitlements file declares them; when it declares none,
    /// one, `default`, of every product that grants an entitlement (``Catalog/standardOfferings(_:)``).
    public var offerings: [OfferingDefinition] = []
    /// The offering served when no targeting rule matches.
    public var defaultOfferingID: String = Catalog.standardOfferingID
    /// Which offering whom: read in order, the first rule that matches wins (``OfferingTargeting``).
    public var targeting: [TargetingRule] = []
    /// When the business checks fire (the entitlements file's `alerts`).
    public var alertThresholds: BusinessThresholds = .seeds
    /// Where the app's access rules differ from Apple's (`policies`).
    public var policies: AccessPolicies = .apple
    /// When a subscriber is flagged as an anomaly (`anomalies`).
    public var anomalyRules: AnomalyRules = .standard
    /// Whether the developer is in Apple's Small Business Program (`analytics.smallBusinessProgram`):
    /// Apple keeps 15% of every sale rather than 30% in a subscriber's first paid year.
    public var smallBusinessProgram = false
    /// Which retention message Apple shows a customer about to cancel, in order (``RetentionRule``).
    public var retentionRules: [RetentionRule] = []

    private var productIndex: [ProductID: Int]
    private var entitlementIndex: [String: Int]

    public init(
        appName: String? = nil, bundleID: BundleID? = nil, appAppleID: Int64? = nil, environments: [String] = [], storefront: String? = nil,
        currency: String? = nil,
        products: [Product] = [], subscriptionGroups: [SubscriptionGroup] = [], features: [String] = [],
        limits: [String] = [], quotas: [QuotaDefinition] = [], entitlements: [Entitlement] = [],
        free: AccessLevel = .nothing, appTrial: AppTrialPolicy? = nil
    ) {
        self.appName = appName
        self.bundleID = bundleID
        self.appAppleID = appAppleID
        self.environments = environments
        self.storefront = storefront
        self.currency = currency
        self.products = products.sorted { $0.id < $1.id }
        self.subscriptionGroups = subscriptionGroups
        self.features = features.sorted()
        self.limits = limits.sorted()
        self.quotas = quotas.sorted { $0.name < $1.name }
        self.entitlements = entitlements.sorted { $0.id < $1.id }
        self.free = free
        self.appTrial = appTrial
        self.productIndex = Dictionary(uniqueKeysWithValues: self.products.enumerated().map { ($1.id, $0) })
        self.entitlementIndex = Dictionary(uniqueKeysWithValues: self.entitlements.enumerated().map { ($1.id, $0) })
        self.offerings = Self.standardOfferings(self.products)
    }

    /// A catalog with no products: every subscriber gets nothing but a warning-free "no subscription".
    public static let empty = Catalog()

    public func product(_ id: ProductID) -> Product? { productIndex[id].map { products[$0] } }

    /// The change from subscription `currentID` to `targetID` (``ProductChange``), or `nil` when the
    /// two are not subscriptions of one group, or are the same product.
    public func change(from currentID: ProductID, to targetID: ProductID) -> ProductChange? {
        guard let current = product(currentID), let target = product(targetID) else { return nil }
        return ProductChange(from: current, to: target)
    }
    public func entitlement(_ id: String) -> Entitlement? { entitlementIndex[id].map { entitlements[$0] } }
    public func quota(_ name: String) -> QuotaDefinition? { quotas.first { $0.name == name } }

    /// The entitlements `productID` grants; empty for an unknown product.
    public func entitlements(forProduct productID: ProductID) -> [Entitlement] {
        product(productID)?.entitlementIDs.compactMap(entitlement) ?? []
    }

    /// The access a product grants: the union of its entitlements' levels.
    public func access(forProduct productID: ProductID) -> AccessLevel {
        entitlements(forProduct: productID).reduce(AccessLevel.nothing) { $0.union($1.access) }
    }
}
