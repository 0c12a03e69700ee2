import Foundation

/// Validates a decoded `.storekit` configuration and entitlements document against each other and
/// builds the ``Catalog``. Collects every problem; throws them all at the end.
struct CatalogResolver {
    let configuration: StoreKitConfiguration
    let storeKitFile: String
    let document: EntitlementsDocument
    let entitlementsFile: String

    private var errors: [CatalogError] = []
    /// Where each product is defined in the `.storekit` file.
    private var productPaths: [String: JSONPath] = [:]

    init(configuration: StoreKitConfiguration, storeKitFile: String, document: EntitlementsDocument, entitlementsFile: String) {
        self.configuration = configuration
        self.storeKitFile = storeKitFile
        self.document = document
        self.entitlementsFile = entitlementsFile
    }

    mutating func resolve() throws(CatalogValidationError) -> Catalog {
        let currency = document.currency ?? configuration.settings?.storefront.flatMap(Self.currency(forStorefront:))
        var products = readProducts(currency: currency)
        let groups = configuration.subscriptionGroups.map { group in
            SubscriptionGroup(
                id: group.id, name: group.name,
                productIDsByLevel: group.subscriptions.sorted { ($0.groupNumber ?? .max, $0.productID) < ($1.groupNumber ?? .max, $1.productID) }
                    .map { ProductID($0.productID) })
        }

        if document.formatVersion != 1 {
            fail(.unsupportedVersion, entitlements: JSONPath().key("formatVersion"), "format version \(document.formatVersion) is not supported", hint: "use 1")
        }
        let features = Set(document.features.keys)
        let limits = Set(document.limits.keys)
        for name in document.features.keys.sorted() where name.isEmpty || name == "*" {
            fail(.invalidValue, entitlements: JSONPath().key("features").key(name), "\"\(name)\" can't name a feature", hint: "use a name such as challenges.create")
        }
        for name in limits.intersection(features).sorted() {
            fail(.invalidValue, entitlements: JSONPath().key("limits").key(name), "\"\(name)\" is declared both as a feature and as a limit")
        }
        var quotas: [QuotaDefinition] = []
        for (name, quota) in document.quotas.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath().key("quotas").key(name)
            if let window = QuotaWindow(name: quota.window, length: quota.length) {
                quotas.append(QuotaDefinition(name: name, description: quota.description, window: window))
            } else if quota.window == "rolling" {
                fail(.invalidDuration, entitlements: path.key("length"), "a rolling window needs a \"length\" such as P30D", hint: "an ISO 8601 duration")
            } else {
                fail(.invalidValue, entitlements: path.key("window"), "\"\(quota.window)\" is not a quota window",
                     hint: "calendarDay, calendarWeek, calendarMonth, or rolling with a length")
            }
        }
        let quotaNames = Set(document.quotas.keys)
        let declared = Declared(features: features, limits: limits, quotas: quotaNames)

        var entitlements: [Entitlement] = []
        var grantedBy: [String: [String]] = [:]
        for (id, definition) in document.entitlements.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath().key("entitlements").key(id)
            var seen = Set<String>()
            for (position, productID) in definition.products.enumerated() {
                let productPath = path.key("products").index(position)
                guard seen.insert(productID).inserted else {
                    fail(.duplicateProduct, entitlements: productPath, "\(productID) is listed twice in this entitlement")
                    continue
                }
                guard let product = products[productID] else {
                    fail(.unknownProduct, entitlements: productPath, "\(productID) is not a product of \(storeKitFile)", hint: suggestion(for: productID, among: Array(products.keys)))
                    continue
                }
                if product.kind == .consumable {
                    fail(.inconsistentMapping, entitlements: productPath, "\(productID) is a consumable; consumables grant no lasting entitlement",
                         hint: "meter it as a quota, or make it a non-consumable")
                    continue
                }
                grantedBy[productID, default: []].append(id)
            }
            let access = resolveAccess(definition.access, at: path, declared: declared)
            entitlements.append(Entitlement(id: id, displayName: definition.displayName, productIDs: Array(seen).sorted().map { ProductID($0) }, access: access))
        }
        for (productID, ids) in grantedBy { products[productID]?.entitlementIDs = ids.sorted() }

        for (productID, text) in document.nonRenewingDurations.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath().key("nonRenewingDurations").key(productID)
            guard let product = products[productID] else {
                fail(.unknownProduct, entitlements: path, "\(productID) is not a product of \(storeKitFile)", hint: suggestion(for: productID, among: Array(products.keys)))
                continue
            }
            guard product.kind == .nonRenewing else {
                fail(.inconsistentMapping, entitlements: path, "\(productID) is not a non-renewing subscription; only those take a duration here")
                continue
            }
            guard let duration = ISODuration(text) else {
                fail(.invalidDuration, entitlements: path, "\"\(text)\" is not a duration", hint: "an ISO 8601 duration such as P1Y or P3M")
                continue
            }
            products[productID]?.period = duration
        }
        for product in products.values.sorted(by: { $0.id < $1.id })
        where product.kind == .nonRenewing && !product.entitlementIDs.isEmpty && product.period == nil {
            fail(.inconsistentMapping, entitlements: JSONPath().key("nonRenewingDurations"),
                 "the non-renewing subscription \(product.id) grants an entitlement but has no duration",
                 hint: "add \"\(product.id)\": \"P1Y\" (or its real length) to nonRenewingDurations")
        }

        let free = document.free.map { resolveAccess($0, at: JSONPath().key("free"), declared: declared) } ?? .nothing
        let appTrial = document.appTrial.flatMap { resolveTrial($0, declared: declared, entitlementIDs: Set(document.entitlements.keys)) }

        checkLevelOrder(groups: groups, products: products, entitlements: entitlements)
        let knownEnvironments = ["production", "sandbox", "xcode", "local-testing"]
        for (index, name) in (document.environments ?? []).enumerated() where !knownEnvironments.contains(name) {
            fail(.invalidValue, entitlements: JSONPath().key("environments").index(index), "\"\(name)\" is not an environment",
                 hint: "use \(knownEnvironments.joined(separator: ", "))")
        }
        var offerRules: [String: PromotionalOfferEligibility] = [:]
        let offerIDs = Set(products.values.flatMap { $0.promotionalOffers.compactMap(\.id) })
        for (offerID, rule) in document.promotionalOffers.sorted(by: { $0.key < $1.key }) {
            let path = JSONPath().key("promotionalOffers").key(offerID)
            if !offerIDs.contains(offerID) {
                fail(.unknownProduct, entitlements: path, "no product of the .storekit file has the promotional offer \(offerID)",
                     hint: "use an offerID of a product's adHocOffers")
            }
            guard let eligibility = PromotionalOfferEligibility(rawValue: rule.eligibility) else {
                fail(.invalidValue, entitlements: path.key("eligibility"), "\"\(rule.eligibility)\" is not an eligibility rule",
                     hint: "use lapsed, subscribers or anyone")
                continue
            }
            offerRules[offerID] = eligibility
        }
        if let preference = document.consumptionInformation?.refundPreference, !ConsumptionPolicy.refundPreferences.contains(preference) {
            fail(.invalidValue, entitlements: JSONPath().key("consumptionInformation").key("refundPreference"),
                 "\"\(preference)\" is not a refund preference", hint: "use \(ConsumptionPolicy.refundPreferences.joined(separator: ", ")), or leave it out")
        }
        let logInTokens = document.logInTokens.map { resolveLogInTokens($0) }
        if let id = document.appAppleID, id <= 0 {
            fail(.invalidValue, entitlements: JSONPath().key("appAppleID"), "the App Apple ID is a positive number")
        }

        let offerings = resolveOfferings(products: products)
        let retention = resolveRetentionMessages(products: products)
        let anomalyRules = resolveAnomalyRules(quotas: Set(quotas.map(\.name)))
        var thresholds = BusinessThresholds.seeds
        if let alerts = document.alerts {
            for (key, value, set) in [
                ("trialConversionBelow", alerts.trialConversionBelow, { (t: inout BusinessThresholds, v: Double) in t.trialConversionBelow = v }),
                ("paywallBounceAbove", alerts.paywallBounceAbove, { (t: inout BusinessThresholds, v: Double) in t.paywallBounceAbove = v }),
                ("revenueDropAbove", alerts.revenueDropAbove, { (t: inout BusinessThresholds, v: Double) in t.revenueDropAbove = v }),
                ("paymentFailureAbove", alerts.paymentFailureAbove, { (t: inout BusinessThresholds, v: Double) in t.paymentFailureAbove = v }),
                ("purchaseFailureAbove", alerts.purchaseFailureAbove, { (t: inout BusinessThresholds, v: Double) in t.purchaseFailureAbove = v }),
            ] {
                guard let value else { continue }
                guard value.isFinite, (0...1).contains(value) else {
                    fail(.invalidValue, entitlements: JSONPath().key("alerts").key(key), "a threshold is a fraction from 0 to 1", hint: "0.1 for 10%")
                    continue
                }
                set(&thresholds, value)
            }
        }

        var policies = AccessPolicies.apple
        if let document = document.policies {
            policies.billingRetryAccess = document.billingRetryAccess ?? false
            if let hours = document.provisionalGrantHours {
                if (1...AccessPolicies.longestProvisionalGrantHours).contains(hours) {
                    policies.provisionalGrantHours = hours
                } else {
                    fail(
                        .invalidValue, entitlements: JSONPath().key("policies").key("provisionalGrantHours"),
                        "a provisional grant lasts 1 to \(AccessPolicies.longestProvisionalGrantHours) hours", hint: "24")
                }
            }
        }

        guard errors.isEmpty else {
            throw CatalogValidationError(errors: errors)
        }
        var catalog = Catalog(
            appName: configuration.settings?.applicationName,
            bundleID: (document.bundleID ?? configuration.settings?.bundle).map { BundleID($0) },
            appAppleID: document.appAppleID,
            environments: document.environments ?? [],
            storefront: configuration.settings?.storefront,
            currency: currency,
            products: Array(products.values),
            subscriptionGroups: groups,
            features: Array(features),
            limits: Array(limits),
            quotas: quotas,
            entitlements: entitlements,
            free: free,
            appTrial: appTrial)
        catalog.acceptsAppKeys = document.appKeys ?? true
        catalog.logInTokens = logInTokens
        catalog.promotionalOfferEligibility = offerRules
        catalog.consumptionPolicy = document.consumptionInformation.map { ConsumptionPolicy(refundPreference: $0.refundPreference) }
        if let declared = offerings.declared { catalog.offerings = declared }
        catalog.defaultOfferingID = offerings.defaultID
        catalog.targeting = offerings.targeting
        catalog.alertThresholds = thresholds
        catalog.policies = policies
        catalog.smallBusinessProgram = document.analytics?.smallBusinessProgram ?? false
        catalog.retentionRules = retention
        catalog.anomalyRules = anomalyRules
        return catalog
    }

    private mutating func resolveLogInTokens(_ document: LogInTokensDocument) -> LogInTokenPolicy {
        let path = JSONPath().key("logInTokens")
        if document.publicKeys.isEmpty {
            fail(.invalidValue, entitlements: path.key("publicKeys"), "log-in tokens need at least one public key",
                 hint: "add the backend's P-256 public key as PEM, under a key ID: entitle login-token new-key prints one")
        }
        var keys: [String: [UInt8]] = [:]
        for (keyID, pem) in document.publicKeys.sorted(by: { $0.key < $1.key }) {
            if keyID.isEmpty || keyID.utf8.count > 100 {
                fail(.invalidValue, entitlements: path.key("publicKeys"), "a key ID is 1 to 100 bytes")
            }
            guard let point = LogInTokenPolicy.point(fromPEM: pem) else {
                fail(.invalidValue, entitlements: path.key("publicKeys").key(keyID), "the key \(keyID) is not a P-256 public key in PEM",
                     hint: "-----BEGIN PUBLIC KEY----- …; entitle login-token new-key prints one")
                continue
            }
            keys[keyID] = point
        }
        return LogInTokenPolicy(publicKeys: keys, requiredForAppKeys: document.requiredForAppKeys ?? false)
    }

    // MARK: - The .storekit file

    private mutating func readProducts(currency: String?) -> [String: Product] {
        var products: [String: Product] = [:]
        func register(_ product: Product, at path: JSONPath) {
            if let first = productPaths[product.id.rawValue] {
                fail(.duplicateProduct, storeKit: path.key("productID"), "\(product.id) is defined twice", hint: "first defined at \(first)")
                return
            }
            productPaths[product.id.rawValue] = path
            products[product.id.rawValue] = product
        }
        for (key, list) in [("products", configuration.products), ("nonRenewingSubscriptions", configuration.nonRenewingSubscriptions)] {
            for (index, entry) in list.enumerated() {
                let path = JSONPath().key(key).index(index)
                let kind: ProductKind
                switch entry.type {
                case "Consumable": kind = .consumable
                case "NonConsumable": kind = .nonConsumable
                case "NonRenewingSubscription": kind = .nonRenewing
                default:
                    fail(.invalidValue, storeKit: path.key("type"), "\"\(entry.type)\" is not a product type here", hint: "Consumable, NonConsumable or NonRenewingSubscription")
                    continue
                }
                register(
                    Product(
                        id: ProductID(entry.productID), kind: kind, referenceName: entry.referenceName,
                        price: price(entry.displayPrice, currency: currency, at: path.key("displayPrice")),
                        familyShareable: entry.familyShareable, localizations: entry.localizations.map(Self.localization)),
                    at: path)
            }
        }
        for (groupIndex, group) in configuration.subscriptionGroups.enumerated() {
            for (index, entry) in group.subscriptions.enumerated() {
                let path = JSONPath().key("subscriptionGroups").index(groupIndex).key("subscriptions").index(index)
                if let type = entry.type, type != "RecurringSubscription" {
                    fail(.invalidValue, storeKit: path.key("type"), "\"\(type)\" is not an auto-renewable subscription type", hint: "RecurringSubscription")
                }
                let period = ISODuration(entry.recurringSubscriptionPeriod)
                if !(period.map(CatalogLoader.subscriptionPeriods.contains) ?? false) {
                    fail(.invalidDuration, storeKit: path.key("recurringSubscriptionPeriod"),
                         "\"\(entry.recurringSubscriptionPeriod)\" is not a subscription period the App Store offers",
                         hint: "one of P1W, P1M, P2M, P3M, P6M, P1Y")
                }
                if let level = entry.groupNumber, level < 1 {
                    fail(.invalidValue, storeKit: path.key("groupNumber"), "level \(level) is below 1", hint: "1 is the highest level of service")
                }
                if let groupID = entry.subscriptionGroupID, groupID != group.id {
                    fail(.inconsistentMapping, storeKit: path.key("subscriptionGroupID"), "\(groupID) differs from the enclosing group's id \(group.id)")
                }
                register(
                    Product(
                        id: ProductID(entry.productID), kind: .autoRenewable, referenceName: entry.referenceName,
                        price: price(entry.displayPrice, currency: currency, at: path.key("displayPrice")),
                        familyShareable: entry.familyShareable, period: period, subscriptionGroupID: group.id,
                        groupLevel: entry.groupNumber,
                        introductoryOffer: entry.introductoryOffer.flatMap { offer($0, kind: .introductory, currency: currency, at: path.key("introductoryOffer")) },
                        promotionalOffers: entry.adHocOffers.enumerated().compactMap { offer($1, kind: .promotional, currency: currency, at: path.key("adHocOffers").index($0)) },
                        offerCodes: entry.codeOffers.enumerated().compactMap { offer($1, kind: .offerCode, currency: currency, at: path.key("codeOffers").index($0)) },
                        winBackOffers: entry.winbackOffers.enumerated().compactMap { offer($1, kind: .winBack, currency: currency, at: path.key("winbackOffers").index($0)) },
                        localizations: entry.localizations.map(Self.localization)),
                    at: path)
            }
        }
        return products
    }

    private mutating func price(_ text: String?, currency: String?, at path: JSONPath) -> Price? {
        guard let text else { return nil }
        guard let price = Price(text, currency: currency) else {
            fail(.invalidPrice, storeKit: path, "\"\(text)\" is not a price", hint: "a decimal number such as 7.99")
            return nil
        }
        return price
    }

    private mutating func offer(_ entry: StoreKitOffer, kind: SubscriptionOffer.Kind, currency: String?, at path: JSONPath) -> SubscriptionOffer? {
        guard let mode = OfferPaymentMode(rawValue: entry.paymentMode) else {
            fail(.invalidValue, storeKit: path.key("paymentMode"), "\"\(entry.paymentMode)\" is not a payment mode", hint: "free, payAsYouGo or payUpFront")
            return nil
        }
        guard let period = ISODuration(entry.subscriptionPeriod) else {
            fail(.invalidDuration, storeKit: path.key("subscriptionPeriod"), "\"\(entry.subscriptionPeriod)\" is not a duration", hint: "an ISO 8601 duration such as P1W or P1M")
            return nil
        }
        let count = entry.numberOfPeriods ?? 1
        if count < 1 {
            fail(.invalidValue, storeKit: path.key("numberOfPeriods"), "\(count) periods", hint: "1 or more")
        }
        return SubscriptionOffer(
            kind: kind, id: entry.offerID ?? entry.internalID, referenceName: entry.referenceName, paymentMode: mode,
            period: period, numberOfPeriods: max(count, 1),
            price: mode == .freeTrial ? nil : price(entry.displayPrice, currency: currency, at: path.key("displayPrice")))
    }

    private static func localization(_ entry: StoreKitLocalization) -> ProductLocalization {
        ProductLocalization(locale: entry.locale, displayName: entry.displayName, description: entry.description)
    }

    // MARK: - The entitlements file

    private struct Declared {
        var features: Set<String>
        var limits: Set<String>
        var quotas: Set<String>
    }

    private mutating func resolveAccess(_ level: AccessLevelDocument, at path: JSONPath, declared: Declared) -> AccessLevel {
        var features = Set<String>()
        for (index, name) in level.features.enumerated() {
            if name == "*" {
                features.formUnion(declared.features)
            } else if declared.features.contains(name) {
                features.insert(name)
            } else {
                fail(.unknownFeature, entitlements: path.key("features").index(index), "\"\(name)\" is not a declared feature",
                     hint: suggestion(for: name, among: Array(declared.features), noun: "declared features"))
            }
        }
        let limits = resolveAllowances(level.limits, at: path.key("limits"), declared: declared.limits, noun: "limit")
        let quotas = resolveAllowances(level.quotas, at: path.key("quotas"), declared: declared.quotas, noun: "quota")
        return AccessLevel(features: features, limits: limits, quotas: quotas)
    }

    private mutating func resolveAllowances(_ values: [String: AllowanceDocument], at path: JSONPath, declared: Set<String>, noun: String) -> [String: Allowance] {
        var result: [String: Allowance] = [:]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard declared.contains(name) else {
                fail(.unknownFeature, entitlements: path.key(name), "\"\(name)\" is not a declared \(noun)",
                     hint: suggestion(for: name, among: Array(declared), noun: "declared \(noun)s"))
                continue
            }
            switch value {
            case .count(let count) where count >= 0: result[name] = .limited(count)
            case .count(let count):
                fail(.invalidValue, entitlements: path.key(name), "\(count) is negative", hint: "a whole number from 0, or \"unlimited\"")
            case .unlimited: result[name] = .unlimited
            case .invalid(let text):
                fail(.invalidValue, entitlements: path.key(name), "\(text) is not a \(noun) amount", hint: "a whole number from 0, or \"unlimited\"")
            }
        }
        return result
    }

    private mutating func resolveTrial(_ trial: AppTrialDocument, declared: Declared, entitlementIDs: Set<String>) -> AppTrialPolicy? {
        let path = JSONPath().key("appTrial")
        let length = ISODuration(trial.length)
        if length == nil {
            fail(.invalidDuration, entitlements: path.key("length"), "\"\(trial.length)\" is not a duration", hint: "an ISO 8601 duration such as P30D")
        }
        var grace: ISODuration?
        if let text = trial.grace {
            grace = ISODuration(text)
            if grace == nil {
                fail(.invalidDuration, entitlements: path.key("grace"), "\"\(text)\" is not a duration", hint: "an ISO 8601 duration such as P7D")
            }
        }
        for (key, list) in [("entitlements", trial.entitlements ?? []), ("graceEntitlements", trial.graceEntitlements ?? [])] {
            for (index, id) in list.enumerated() where !entitlementIDs.contains(id) {
                fail(.unknownEntitlement, entitlements: path.key(key).index(index), "\"\(id)\" is not an entitlement of this file",
                     hint: suggestion(for: id, among: Array(entitlementIDs), noun: "entitlements"))
            }
        }
        let lockoutAccess = trial.lockoutAccess.map { resolveAccess($0, at: path.key("lockoutAccess"), declared: declared) } ?? .nothing
        guard let length else { return nil }
        return AppTrialPolicy(
            length: length, grace: grace, graceAfterSubscriptionExpiry: trial.graceAfterSubscriptionExpiry,
            entitlementIDs: (trial.entitlements ?? entitlementIDs.sorted()).filter(entitlementIDs.contains),
            graceEntitlementIDs: trial.graceEntitlements?.filter(entitlementIDs.contains), lockoutAccess: lockoutAccess)
    }

    /// Apple ranks a group's subscriptions by level, 1 the highest level of service: moving to a higher
    /// level is an upgrade (immediate, prorated refund), to a lower one a downgrade (at renewal). A
    /// higher-level product that grants less than a lower-level one turns every "upgrade" into a loss of
    /// access, so it is reported.
    private mutating func checkLevelOrder(groups: [SubscriptionGroup], products: [String: Product], entitlements: [Entitlement]) {
        let levels = Dictionary(uniqueKeysWithValues: entitlements.map { ($0.id, $0.access) })
        func access(_ product: Product) -> AccessLevel {
            product.entitlementIDs.compactMap { levels[$0] }.reduce(AccessLevel.nothing) { $0.union($1) }
        }
        for group in groups {
            let ranked = group.productIDsByLevel.compactMap { products[$0.rawValue] }.compactMap { product in
                product.groupLevel.flatMap { level in product.entitlementIDs.isEmpty ? nil : (product: product, level: level) }
            }
            for (lower, lowerLevel) in ranked {
                for (higher, higherLevel) in ranked where higherLevel < lowerLevel {
                    let higherAccess = access(higher)
                    let lowerAccess = access(lower)
                    guard !higherAccess.covers(lowerAccess) else { continue }
                    let extra = Self.describeExcess(of: lowerAccess, over: higherAccess)
                    fail(.inconsistentMapping, storeKit: (productPaths[lower.id.rawValue] ?? JSONPath()).key("groupNumber"),
                         "\(lower.id) (level \(lower.groupLevel!)) grants \(extra), which \(higher.id) (level \(higher.groupLevel!), a higher level of service) does not",
                         hint: "give the product that grants more the smaller groupNumber; the App Store treats moving to a smaller groupNumber as an upgrade")
                }
            }
        }
    }

    private static func describeExcess(of lower: AccessLevel, over higher: AccessLevel) -> String {
        var parts = lower.features.subtracting(higher.features).sorted()
        parts += lower.limits.filter { higher.limit($0.key) < $0.value }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        parts += lower.quotas.filter { higher.quota($0.key) < $0.value }.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }
        return parts.joined(separator: ", ")
    }

    // MARK: - Helpers

    private mutating func fail(_ code: CatalogError.Code, storeKit path: JSONPath, _ message: String, hint: String? = nil) {
        errors.append(CatalogError(code, file: storeKitFile, path: path.description, message: message, hint: hint))
    }

    mutating func fail(_ code: CatalogError.Code, entitlements path: JSONPath, _ message: String, hint: String? = nil) {
        errors.append(CatalogError(code, file: entitlementsFile, path: path.description, message: message, hint: hint))
    }

    /// "did you mean X?" for a near miss, else the list of valid names.
    func suggestion(for name: String, among candidates: [String], noun: String = "products") -> String {
        let sorted = candidates.sorted()
        guard !sorted.isEmpty else { return "there are no \(noun)" }
        let nearest = sorted.map { ($0, Self.editDistance($0, name)) }.min { $0.1 < $1.1 }!
        if nearest.1 <= max(2, name.count / 4) {
            return "did you mean \(nearest.0)?"
        }
        let shown = sorted.prefix(8).joined(separator: ", ")
        return "\(noun): \(shown)\(sorted.count > 8 ? ", …" : "")"
    }

    private static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }

    static func currency(forStorefront storefront: String) -> String? {
        let table = [
            "USA": "USD", "GBR": "GBP", "CAN": "CAD", "AUS": "AUD", "JPN": "JPY", "CHE": "CHF", "DEU": "EUR",
            "FRA": "EUR", "ITA": "EUR", "ESP": "EUR", "NLD": "EUR", "IRL": "EUR", "SWE": "SEK", "NOR": "NOK",
            "DNK": "DKK", "IND": "INR", "BRA": "BRL", "MEX": "MXN", "CHN": "CNY", "KOR": "KRW",
        ]
        return table[storefront]
    }
}
