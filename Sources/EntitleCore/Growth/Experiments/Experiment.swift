import Foundation

/// An experiment on offerings: an audience split between variants, each served its own offering, by
/// a deterministic hash of the subscriber and the experiment (``ExperimentAssignment``). Stored as
/// global ledger events, each change a new version of the whole experiment.
public struct Experiment: Hashable, Sendable, Codable {
    public var id: String
    public var name: String?
    /// The control first: results compare every other variant with it.
    public var variants: [ExperimentVariant]
    /// Who is enrolled; everyone when `nil`. The rule's offering is unused.
    public var audiences: [Audience]?
    /// Storefronts enrolled; any when `nil`.
    public var storefronts: [String]?
    /// How long after enrolment revenue counts in the results, in days.
    public var revenueWindowDays: Int
    public var state: ExperimentState
    /// The variant served to everyone once rolled out.
    public var rolledOutVariantID: String?
    public var createdAt: Date
    public var startedAt: Date?
    public var endedAt: Date?

    public init(
        id: String, name: String? = nil, variants: [ExperimentVariant], audiences: [Audience]? = nil, storefronts: [String]? = nil,
        revenueWindowDays: Int = 30, state: ExperimentState = .draft, createdAt: Date
    ) {
        self.id = id
        self.name = name
        self.variants = variants
        self.audiences = audiences
        self.storefronts = storefronts
        self.revenueWindowDays = revenueWindowDays
        self.state = state
        self.createdAt = createdAt
    }

    public static let maximumVariants = 5
    public static let revenueWindows = 1...365

    /// What is wrong with the experiment for `catalog`, or `nil`.
    public func problem(in catalog: Catalog) -> String? {
        guard !id.isEmpty, id.utf8.count <= PaywallEvent.maximumTextLength, !id.contains("/") else {
            return "an experiment's id is 1 to \(PaywallEvent.maximumTextLength) bytes, without /"
        }
        if let name, name.utf8.count > 200 { return "a name is at most 200 bytes" }
        guard (2...Self.maximumVariants).contains(variants.count) else { return "an experiment has 2 to \(Self.maximumVariants) variants" }
        guard Set(variants.map(\.id)).count == variants.count else { return "variant ids are distinct" }
        for variant in variants {
            guard !variant.id.isEmpty, variant.id.utf8.count <= PaywallEvent.maximumTextLength, !variant.id.contains("/") else {
                return "a variant's id is 1 to \(PaywallEvent.maximumTextLength) bytes, without /"
            }
            guard (1...1_000).contains(variant.weight) else { return "a variant's weight is 1 to 1000" }
            guard catalog.offering(variant.offeringID) != nil else {
                return "\(variant.offeringID) is not an offering of the catalog: \(catalog.offeringIDs.joined(separator: ", "))"
            }
        }
        guard Self.revenueWindows.contains(revenueWindowDays) else { return "revenueWindowDays is 1 to 365" }
        for storefront in storefronts ?? [] where !TargetingContext.isStorefrontCode(storefront) {
            return "\(storefront) is not a storefront (ISO 3166-1 alpha-3, such as FRA)"
        }
        if let rolledOutVariantID, !variants.contains(where: { $0.id == rolledOutVariantID }) {
            return "\(rolledOutVariantID) is not a variant of the experiment"
        }
        return nil
    }

    /// Whether the experiment's audience admits a subscriber in `context`.
    public func admits(_ context: TargetingContext) -> Bool {
        TargetingRule(offeringID: "", storefronts: storefronts, audiences: audiences).matches(context)
    }

    public func variant(_ id: String) -> ExperimentVariant? { variants.first { $0.id == id } }
}
