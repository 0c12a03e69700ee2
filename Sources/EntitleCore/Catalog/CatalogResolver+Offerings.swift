extension CatalogResolver {
    /// The longest identifier, metadata key or value an offering declares, in bytes of UTF-8: what a
    /// paywall event may name (``PaywallEvent/maximumTextLength``).
    static let maximumOfferingText = PaywallEvent.maximumTextLength

    /// The entitlements file's offerings (`nil` when it declares none), its default offering and its
    /// targeting rules, checked against the products and each other.
    mutating func resolveOfferings(
        products: [String: Product]
    ) -> (declared: [OfferingDefinition]?, defaultID: String, targeting: [TargetingRule]) {
        var declared: [OfferingDefinition]?
        if let documents = document.offerings {
            var offerings: [OfferingDefinition] = []
            if documents.isEmpty {
                fail(.invalidValue, entitlements: JSONPath().key("offerings"), "offerings declares none", hint: "leave it out for one offering of every product")
            }
            for (id, offering) in documents.sorted(by: { $0.key < $1.key }) {
                let path = JSONPath().key("offerings").key(id)
                if id.isEmpty || id.utf8.count > Self.maximumOfferingText {
                    fail(.invalidValue, entitlements: path, "an offering's ID is 1 to \(Self.maximumOfferingText) bytes")
                }
                var seen = Set<String>()
                for (position, productID) in offering.products.enumerated() {
                    if products[productID] == nil {
                        fail(.unknownProduct, entitlements: path.key("products").index(position), "\(productID) is not a product of \(storeKitFile)",
                             hint: suggestion(for: productID, among: Array(products.keys)))
                    } else if !seen.insert(productID).inserted {
                        fail(.duplicateProduct, entitlements: path.key("products").index(position), "\(productID) is listed twice in this offering")
                    }
                }
                if offering.products.isEmpty {
                    fail(.invalidValue, entitlements: path.key("products"), "an offering shows at least one product")
                }
                if let highlighted = offering.highlighted, !offering.products.contains(highlighted) {
                    fail(.inconsistentMapping, entitlements: path.key("highlighted"), "\(highlighted) is not one of this offering's products")
                }
                for (key, value) in (offering.metadata ?? [:]).sorted(by: { $0.key < $1.key })
                where key.isEmpty || key.utf8.count > Self.maximumOfferingText || value.utf8.count > 1_000 {
                    fail(.invalidValue, entitlements: path.key("metadata").key(key), "metadata keys are 1 to \(Self.maximumOfferingText) bytes, values at most 1,000")
                }
                offerings.append(OfferingDefinition(
                    id: id, productIDs: offering.products.map { ProductID($0) }, highlighted: offering.highlighted.map { ProductID($0) },
                    metadata: offering.metadata ?? [:]))
            }
            declared = offerings
        }
        let ids = Set(declared?.map(\.id) ?? [Catalog.standardOfferingID])
        let defaultID = document.defaultOffering ?? Catalog.standardOfferingID
        if !ids.contains(defaultID) {
            fail(.inconsistentMapping, entitlements: JSONPath().key(document.defaultOffering == nil ? "offerings" : "defaultOffering"),
                 "the default offering \(defaultID) is not declared", hint: "declare it in offerings, or name one as defaultOffering")
        }

        var targeting: [TargetingRule] = []
        for (index, rule) in document.targeting.enumerated() {
            let path = JSONPath().key("targeting").index(index)
            if !ids.contains(rule.offering) {
                fail(.inconsistentMapping, entitlements: path.key("offering"), "\(rule.offering) is not an offering of this file",
                     hint: suggestion(for: rule.offering, among: Array(ids), noun: "offerings"))
            }
            for (key, version) in [("minimumAppVersion", rule.minimumAppVersion), ("belowAppVersion", rule.belowAppVersion)] {
                if let version, AppVersion(version) == nil {
                    fail(.invalidValue, entitlements: path.key(key), "\"\(version)\" is not an app version", hint: "1 to 4 numbers such as 2.4.1")
                }
            }
            for (position, storefront) in (rule.storefronts ?? []).enumerated()
            where !TargetingContext.isStorefrontCode(storefront) {
                fail(.invalidValue, entitlements: path.key("storefronts").index(position), "\"\(storefront)\" is not a storefront",
                     hint: "an ISO 3166-1 alpha-3 code such as FRA, as StoreKit's Storefront.countryCode gives it")
            }
            var audiences: [Audience] = []
            for (position, name) in (rule.audiences ?? []).enumerated() {
                guard let audience = Audience(rawValue: name) else {
                    fail(.invalidValue, entitlements: path.key("audiences").index(position), "\"\(name)\" is not an audience",
                         hint: Audience.allCases.map(\.rawValue).joined(separator: ", "))
                    continue
                }
                audiences.append(audience)
            }
            targeting.append(TargetingRule(
                offeringID: rule.offering, storefronts: rule.storefronts, minimumAppVersion: rule.minimumAppVersion, belowAppVersion: rule.belowAppVersion,
                audiences: rule.audiences == nil ? nil : audiences, attributes: rule.attributes))
        }
        return (declared, defaultID, targeting)
    }
}
