import EntitleCore
import EntitleWire
import Foundation

/// Which subscribers a list admits (the dashboard's and `GET /v1/subscribers`): every condition given
/// holds; one not given filters nothing. Purchase conditions (state, product, storefront) hold of one
/// purchase together.
public struct SubscriberFilter: Hashable, Sendable {
    public var state: SubscriptionState?
    public var productID: ProductID?
    /// A storefront (`USA`, `FRA`: Apple's three-letter codes).
    public var storefront: String?
    /// An entitlement active now.
    public var entitlementID: String?
    /// First seen (first purchase or app trial) at or after, and before.
    public var firstSeenFrom: Date?
    public var firstSeenBefore: Date?
    public var inTrial: Bool?
    public var inGrace: Bool?
    public var refunded: Bool?
    /// Flagged as an anomaly (docs/anomalies.md), or not.
    public var flagged: Bool?

    public init(
        state: SubscriptionState? = nil, productID: ProductID? = nil, storefront: String? = nil, entitlementID: String? = nil,
        firstSeenFrom: Date? = nil, firstSeenBefore: Date? = nil, inTrial: Bool? = nil, inGrace: Bool? = nil, refunded: Bool? = nil,
        flagged: Bool? = nil
    ) {
        self.flagged = flagged
        self.state = state
        self.productID = productID
        self.storefront = storefront
        self.entitlementID = entitlementID
        self.firstSeenFrom = firstSeenFrom
        self.firstSeenBefore = firstSeenBefore
        self.inTrial = inTrial
        self.inGrace = inGrace
        self.refunded = refunded
    }

    /// The filter a form gives: an empty field filters nothing; a state or product not of `catalog`
    /// is refused (`request.invalid`).
    public init(state: String?, product: String?, catalog: Catalog) throws(ServiceError) {
        try self.init(fields: ["state": state, "product": product], catalog: catalog)
    }

    /// The filter of a query or form: `state`, `product`, `storefront`, `entitlement`, `firstSeenFrom`,
    /// `firstSeenBefore` (`YYYY-MM-DD` or ISO 8601), `trial`, `grace`, `refunded`, `flagged` (`true` or `false`).
    /// Empty fields filter nothing; anything else out of place is refused (`request.invalid`).
    public init(fields: [String: String?], catalog: Catalog) throws(ServiceError) {
        func field(_ name: String) -> String? { fields[name].flatMap { $0 }.flatMap { $0.isEmpty ? nil : $0 } }
        if let state = field("state"), SubscriptionState(rawValue: state) == nil {
            throw ServiceError(.invalidRequest, "state is one of \(SubscriptionState.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let product = field("product"), catalog.product(ProductID(product)) == nil {
            throw ServiceError(.invalidRequest, "\(product) is not a product of this app")
        }
        if let entitlement = field("entitlement"), catalog.entitlement(entitlement) == nil {
            throw ServiceError(.invalidRequest, "\(entitlement) is not an entitlement of this app")
        }
        if let storefront = field("storefront"), storefront.utf8.count != 3 || !storefront.allSatisfy({ $0.isASCII && $0.isUppercase }) {
            throw ServiceError(.invalidRequest, "storefront is Apple's three-letter code, such as USA")
        }
        func flag(_ name: String) throws(ServiceError) -> Bool? {
            guard let value = field(name) else { return nil }
            guard let flag = Bool(value) else { throw ServiceError(.invalidRequest, "\(name) is true or false") }
            return flag
        }
        func instant(_ name: String) throws(ServiceError) -> Date? {
            guard let value = field(name) else { return nil }
            guard let date = Self.date(value) else { throw ServiceError(.invalidRequest, "\(name) is a date (YYYY-MM-DD) or an ISO 8601 instant") }
            try InputRules.checkInstant(date, name)
            return date
        }
        self.init(
            state: field("state").flatMap(SubscriptionState.init(rawValue:)), productID: field("product").map(ProductID.init),
            storefront: field("storefront"), entitlementID: field("entitlement"),
            firstSeenFrom: try instant("firstSeenFrom"), firstSeenBefore: try instant("firstSeenBefore"),
            inTrial: try flag("trial"), inGrace: try flag("grace"), refunded: try flag("refunded"), flagged: try flag("flagged"))
    }

    /// A day (`2026-03-01`, its start in UTC) or an instant.
    static func date(_ text: String) -> Date? {
        if text.utf8.count == 10, let day = try? Date("\(text)T00:00:00Z", strategy: .iso8601) { return day }
        return try? Date(text, strategy: .iso8601)
    }

    var isEmpty: Bool { self == SubscriberFilter() }

    /// The query parameters that give this filter back (for a next page's or an export's link).
    public var fields: [(String, String)] {
        var fields: [(String, String)] = []
        func add(_ name: String, _ value: String?) { if let value { fields.append((name, value)) } }
        add("state", state?.rawValue)
        add("product", productID?.rawValue)
        add("storefront", storefront)
        add("entitlement", entitlementID)
        add("firstSeenFrom", firstSeenFrom.map { $0.formatted(.iso8601) })
        add("firstSeenBefore", firstSeenBefore.map { $0.formatted(.iso8601) })
        add("trial", inTrial.map(String.init))
        add("grace", inGrace.map(String.init))
        add("refunded", refunded.map(String.init))
        add("flagged", flagged.map(String.init))
        return fields
    }

    func admits(_ purchases: [SubscriberListing.Purchase]) -> Bool {
        (state == nil && productID == nil) || purchases.contains { (state == nil || $0.state == state) && (productID == nil || $0.productID == productID) }
    }

    func admits(_ summary: SubscriberSummary) -> Bool {
        if state != nil || productID != nil || storefront != nil {
            let matching = summary.purchases.contains {
                (state == nil || $0.state == state?.rawValue) && (productID == nil || $0.productID == productID?.rawValue)
                    && (storefront == nil || $0.storefront == storefront)
            }
            guard matching else { return false }
        }
        if let entitlementID, !summary.activeEntitlements.contains(entitlementID) { return false }
        if let firstSeenFrom, !(summary.firstSeenAt.map { $0 >= firstSeenFrom } ?? false) { return false }
        if let firstSeenBefore, !(summary.firstSeenAt.map { $0 < firstSeenBefore } ?? false) { return false }
        if let inTrial, summary.inTrial != inTrial { return false }
        if let inGrace, summary.inGrace != inGrace { return false }
        if let refunded, summary.refunded != refunded { return false }
        if let flagged, summary.anomalies.isEmpty == flagged { return false }
        return true
    }
}
