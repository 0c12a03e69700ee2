import Foundation

/// The entitlements file (`entitlements.json`), decoded: what the products of a `.storekit` file grant.
///
/// The format is documented in `docs/entitlements.md` with a JSON Schema in
/// `docs/entitlements.schema.json`. This type is the raw document; ``CatalogLoader`` validates it and
/// resolves it against the `.storekit` file into a ``Catalog``.
public struct EntitlementsDocument: Decodable, Sendable {
    public var formatVersion: Int
    /// The `.storekit` file, relative to the entitlements file. Optional when the folder holds exactly one.
    public var storeKit: String?
    /// The app's bundle identifier; overrides the `.storekit` file's `settings.bundle`.
    public var bundleID: String?
    /// The app's Apple ID in App Store Connect, which production data must carry.
    public var appAppleID: Int64?
    /// Whether app keys (safe to ship in the app) reach the app's subscribers; `false` for teams whose
    /// backend mints per-subscriber public keys instead. Default `true`.
    public var appKeys: Bool?
    /// The public keys the app's backend signs log-in tokens with, and whether app keys need them.
    public var logInTokens: LogInTokensDocument?
    /// The environments whose signed data the server accepts for the app (`production`, `sandbox`,
    /// `xcode`, `local-testing`).
    public var environments: [String]?
    /// The currency of the `.storekit` prices (ISO 4217); defaults from its storefront.
    public var currency: String?
    public var features: [String: FeatureDocument]
    public var limits: [String: FeatureDocument]
    public var quotas: [String: QuotaDocument]
    public var entitlements: [String: EntitlementDocument]
    /// What every subscriber has with no entitlement (the free tier).
    public var free: AccessLevelDocument?
    public var appTrial: AppTrialDocument?
    /// How long each non-renewing subscription product lasts; StoreKit leaves that to the app.
    public var nonRenewingDurations: [String: String]
    /// Who each promotional offer (by its ID in the `.storekit` file) is signed for.
    public var promotionalOffers: [String: PromotionalOfferDocument]
    /// The app answers CONSUMPTION_REQUEST notifications (it has its customers' consent).
    public var consumptionInformation: ConsumptionInformationDocument?
    /// The offerings a paywall may show, by ID; one, `default`, of every product when absent.
    public var offerings: [String: OfferingDocument]?
    /// The offering served when no targeting rule matches: `default` when absent.
    public var defaultOffering: String?
    /// Which offering whom, read in order; the first rule that matches wins.
    public var targeting: [TargetingRuleDocument]
    /// The business checks' thresholds; the seeds' numbers when absent.
    public var alerts: AlertsDocument?
    /// Which retention message Apple shows a customer about to cancel, read in order.
    public var retentionMessages: [RetentionMessageDocument]
    /// Where the app's access rules differ from Apple's; Apple's when absent.
    public var policies: PoliciesDocument?
    /// What the figures need to know about the developer.
    public var analytics: AnalyticsDocument?
    /// When a subscriber is flagged as an anomaly; the defaults when absent.
    public var anomalies: AnomaliesDocument?

    enum CodingKeys: String, CodingKey {
        case formatVersion, storeKit, bundleID, appAppleID, environments, appKeys, currency, features, limits, quotas, entitlements, free, appTrial
        case nonRenewingDurations, promotionalOffers, consumptionInformation, logInTokens, offerings, defaultOffering, targeting, alerts
        case retentionMessages, policies, analytics, anomalies
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatVersion = try container.decode(Int.self, forKey: .formatVersion)
        storeKit = try container.decodeIfPresent(String.self, forKey: .storeKit)
        bundleID = try container.decodeIfPresent(String.self, forKey: .bundleID)
        appAppleID = try container.decodeIfPresent(Int64.self, forKey: .appAppleID)
        environments = try container.decodeIfPresent([String].self, forKey: .environments)
        appKeys = try container.decodeIfPresent(Bool.self, forKey: .appKeys)
        logInTokens = try container.decodeIfPresent(LogInTokensDocument.self, forKey: .logInTokens)
        currency = try container.decodeIfPresent(String.self, forKey: .currency)
        features = try container.decodeIfPresent([String: FeatureDocument].self, forKey: .features) ?? [:]
        limits = try container.decodeIfPresent([String: FeatureDocument].self, forKey: .limits) ?? [:]
        quotas = try container.decodeIfPresent([String: QuotaDocument].self, forKey: .quotas) ?? [:]
        entitlements = try container.decode([String: EntitlementDocument].self, forKey: .entitlements)
        free = try container.decodeIfPresent(AccessLevelDocument.self, forKey: .free)
        appTrial = try container.decodeIfPresent(AppTrialDocument.self, forKey: .appTrial)
        nonRenewingDurations = try container.decodeIfPresent([String: String].self, forKey: .nonRenewingDurations) ?? [:]
        promotionalOffers = try container.decodeIfPresent([String: PromotionalOfferDocument].self, forKey: .promotionalOffers) ?? [:]
        consumptionInformation = try container.decodeIfPresent(ConsumptionInformationDocument.self, forKey: .consumptionInformation)
        offerings = try container.decodeIfPresent([String: OfferingDocument].self, forKey: .offerings)
        defaultOffering = try container.decodeIfPresent(String.self, forKey: .defaultOffering)
        targeting = try container.decodeIfPresent([TargetingRuleDocument].self, forKey: .targeting) ?? []
        alerts = try container.decodeIfPresent(AlertsDocument.self, forKey: .alerts)
        retentionMessages = try container.decodeIfPresent([RetentionMessageDocument].self, forKey: .retentionMessages) ?? []
        policies = try container.decodeIfPresent(PoliciesDocument.self, forKey: .policies)
        analytics = try container.decodeIfPresent(AnalyticsDocument.self, forKey: .analytics)
        anomalies = try container.decodeIfPresent(AnomaliesDocument.self, forKey: .anomalies)
    }
}
