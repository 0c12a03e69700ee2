import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("CatalogLoader")
struct CatalogLoaderTests {
    static let storeKit = """
        {"identifier":"Test","products":[{"productID":"app.coins","type":"Consumable","displayPrice":"0.99","futureKey":{"x":1}},\
        {"productID":"app.lifetime","type":"NonConsumable","displayPrice":"99.99","familyShareable":true}],\
        "nonRenewingSubscriptions":[{"productID":"app.pass","type":"NonRenewingSubscription","displayPrice":"19.99"}],\
        "settings":{"_storefront":"USA","bundle":"com.example.app","applicationName":"Example"},\
        "subscriptionGroups":[{"id":"G1","name":"Premium","subscriptions":[\
        {"productID":"app.pro.monthly","recurringSubscriptionPeriod":"P1M","displayPrice":"9.99","groupNumber":1,"subscriptionGroupID":"G1","type":"RecurringSubscription",\
        "introductoryOffer":{"paymentMode":"free","subscriptionPeriod":"P1W","numberOfPeriods":1},\
        "adHocOffers":[{"offerID":"promo.half","paymentMode":"payAsYouGo","subscriptionPeriod":"P1M","numberOfPeriods":3,"displayPrice":"4.99"}],\
        "codeOffers":[{"paymentMode":"payUpFront","subscriptionPeriod":"P3M","displayPrice":"19.99"}]},\
        {"productID":"app.basic.monthly","recurringSubscriptionPeriod":"P1M","displayPrice":"4.99","groupNumber":2,"subscriptionGroupID":"G1","type":"RecurringSubscription"},\
        {"productID":"app.pro.yearly","recurringSubscriptionPeriod":"P1Y","displayPrice":"79.99","groupNumber":1,"subscriptionGroupID":"G1","type":"RecurringSubscription","introductoryOffer":null}]}],\
        "version":{"major":3,"minor":0}}
        """

    static let entitlements = """
        {"formatVersion":1,"futureKey":true,\
        "features":{"export":{},"sync":{"description":"Sync"}},\
        "limits":{"devices":{}},\
        "quotas":{"exports":{"window":"calendarMonth"},"shares":{"window":"rolling","length":"P30D"}},\
        "entitlements":{\
        "pro":{"products":["app.pro.monthly","app.pro.yearly","app.lifetime","app.pass"],"features":["*"],"limits":{"devices":5},"quotas":{"exports":"unlimited","shares":50}},\
        "basic":{"products":["app.basic.monthly"],"features":["sync"],"limits":{"devices":1},"quotas":{"exports":10}}},\
        "free":{"features":[],"quotas":{"exports":2}},\
        "nonRenewingDurations":{"app.pass":"P1Y"},\
        "appTrial":{"length":"P30D","grace":"P7D","entitlements":["pro"],"graceEntitlements":["basic"]}}
        """

    /// A P-256 public key and an Ed25519 one, as PEM in a JSON string.
    static let p256PEM = "-----BEGIN PUBLIC KEY-----\\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEbwA8beRs61OTiMmt/9837Bo4za5G\\niLLHmUZA782XvNxB7skK6NziPuXK/ysqiLzEooI7PK6Jf2IuL2O1v65Fkw==\\n-----END PUBLIC KEY-----"
    static let ed25519PEM = "-----BEGIN PUBLIC KEY-----\\nMCowBQYDK2VwAyEAqdkuxVJPq9WT6LkBr6lQH6ynzS5Lr3TQnQTGC3xkQzc=\\n-----END PUBLIC KEY-----"

    @Test("logInTokens: the backend's P-256 keys by key ID, read from PEM to their point; app keys need tokens only when it says so")
    func logInTokens() throws {
        let catalog = try Self.load(entitlements: Self.entitlements.replacingOccurrences(
            of: "\"futureKey\":true,", with: "\"futureKey\":true,\"logInTokens\":{\"publicKeys\":{\"backend\":\"\(Self.p256PEM)\"},\"requiredForAppKeys\":true},"))
        let policy = try #require(catalog.logInTokens)
        #expect(policy.requiredForAppKeys)
        #expect(policy.publicKeys["backend"]?.count == 65 && policy.publicKeys["backend"]?.first == 0x04)
        #expect(try Self.load().logInTokens == nil)
    }

    static func load(storeKit: String = storeKit, entitlements: String = entitlements) throws(CatalogValidationError) -> Catalog {
        try CatalogLoader().load(
            storeKit: Data(storeKit.utf8), storeKitName: "Test.storekit", entitlements: Data(entitlements.utf8),
            entitlementsName: "entitlements.json")
    }

    @Test("a valid pair resolves products, offers, entitlements, quotas and the trial; unknown keys are ignored")
    func resolves() throws {
        let catalog = try Self.load()
        #expect(catalog.appName == "Example")
        #expect(catalog.bundleID == "com.example.app")
        #expect(catalog.currency == "USD")
        #expect(catalog.products.map(\.id) == ["app.basic.monthly", "app.coins", "app.lifetime", "app.pass", "app.pro.monthly", "app.pro.yearly"])
        let pro = try #require(catalog.product("app.pro.monthly"))
        #expect(pro.kind == .autoRenewable)
        #expect(pro.period == ISODuration(months: 1))
        #expect(pro.price?.milliunits == 9990)
        #expect(pro.groupLevel == 1)
        #expect(pro.introductoryOffer == SubscriptionOffer(kind: .introductory, paymentMode: .freeTrial, period: ISODuration(weeks: 1)))
        #expect(pro.promotionalOffers.first?.id == "promo.half")
        #expect(pro.promotionalOffers.first?.numberOfPeriods == 3)
        #expect(pro.promotionalOffers.first?.price?.milliunits == 4990)
        #expect(pro.offerCodes.first?.paymentMode == .payUpFront)
        #expect(pro.entitlementIDs == ["pro"])
        #expect(catalog.product("app.pro.yearly")?.introductoryOffer == nil)
        #expect(catalog.product("app.lifetime")?.kind == .nonConsumable)
        #expect(catalog.product("app.lifetime")?.familyShareable == true)
        #expect(catalog.product("app.pass")?.period == ISODuration(years: 1))
        #expect(catalog.product("app.coins")?.entitlementIDs == [])
        #expect(catalog.subscriptionGroups.first?.productIDsByLevel == ["app.pro.monthly", "app.pro.yearly", "app.basic.monthly"])
        #expect(catalog.entitlement("pro")?.access.features == ["export", "sync"])
        #expect(catalog.entitlement("pro")?.access.limit("devices") == .limited(5))
        #expect(catalog.entitlement("pro")?.access.quota("exports") == .unlimited)
        #expect(catalog.entitlement("basic")?.access.quota("shares") == .limited(0))
        #expect(catalog.free.quota("exports") == .limited(2))
        #expect(catalog.quota("shares")?.window == .rolling(ISODuration(days: 30)))
        #expect(catalog.appTrial?.length == ISODuration(days: 30))
        #expect(catalog.appTrial?.entitlementIDs == ["pro"])
        #expect(catalog.appTrial?.graceEntitlementIDs == ["basic"])
    }

    struct ErrorCase: Sendable, CustomTestStringConvertible {
        var name: String
        var storeKitEdit: (String, String)?
        var entitlementsEdit: (String, String)?
        var code: CatalogError.Code
        var inStoreKit: Bool
        var path: String
        var message: String
        var testDescription: String { name }
    }

    static let errorCases: [ErrorCase] = [
        ErrorCase(name: "storekit not JSON", storeKitEdit: ("\"version\"", "\"version\" x"), code: .malformedJSON, inStoreKit: true, path: "", message: "the file is not valid JSON"),
        ErrorCase(name: "entitlements not JSON", entitlementsEdit: ("{\"formatVersion\":1,", "{\"formatVersion\":1,,"), code: .malformedJSON, inStoreKit: false, path: "", message: "the file is not valid JSON"),
        ErrorCase(name: "wrong type in storekit", storeKitEdit: ("\"groupNumber\":2", "\"groupNumber\":\"2\""), code: .invalidType, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[1].groupNumber", message: "expected a whole number"),
        ErrorCase(name: "wrong type in entitlements", entitlementsEdit: ("\"features\":[\"sync\"]", "\"features\":\"sync\""), code: .invalidType, inStoreKit: false, path: "entitlements.basic.features", message: "expected an array"),
        ErrorCase(name: "null where a value is required", storeKitEdit: ("\"productID\":\"app.pass\"", "\"productID\":null"), code: .invalidType, inStoreKit: true, path: "nonRenewingSubscriptions[0].productID", message: "expected a string but found null"),
        ErrorCase(name: "missing period", storeKitEdit: ("\"productID\":\"app.basic.monthly\",\"recurringSubscriptionPeriod\":\"P1M\",", "\"productID\":\"app.basic.monthly\","), code: .missingKey, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod", message: "the required key \"recurringSubscriptionPeriod\" is missing"),
        ErrorCase(name: "missing format version", entitlementsEdit: ("{\"formatVersion\":1,", "{"), code: .missingKey, inStoreKit: false, path: "formatVersion", message: "the required key \"formatVersion\" is missing"),
        ErrorCase(name: "unsupported version", entitlementsEdit: ("{\"formatVersion\":1,", "{\"formatVersion\":2,"), code: .unsupportedVersion, inStoreKit: false, path: "formatVersion", message: "format version 2 is not supported"),
        ErrorCase(name: "unknown quota window", entitlementsEdit: ("{\"window\":\"calendarMonth\"}", "{\"window\":\"fortnightly\"}"), code: .invalidValue, inStoreKit: false, path: "quotas.exports.window", message: "\"fortnightly\" is not a quota window"),
        ErrorCase(name: "negative limit", entitlementsEdit: ("\"devices\":5", "\"devices\":-5"), code: .invalidValue, inStoreKit: false, path: "entitlements.pro.limits.devices", message: "-5 is negative"),
        ErrorCase(name: "fractional quota", entitlementsEdit: ("\"exports\":10", "\"exports\":2.5"), code: .invalidValue, inStoreKit: false, path: "entitlements.basic.quotas.exports", message: "2.5 is not a quota amount"),
        ErrorCase(name: "unknown product type", storeKitEdit: ("\"type\":\"Consumable\"", "\"type\":\"Subscription\""), code: .invalidValue, inStoreKit: true, path: "products[0].type", message: "\"Subscription\" is not a product type here"),
        ErrorCase(name: "unknown payment mode", storeKitEdit: ("\"paymentMode\":\"payUpFront\"", "\"paymentMode\":\"upfront\""), code: .invalidValue, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[0].codeOffers[0].paymentMode", message: "\"upfront\" is not a payment mode"),
        ErrorCase(name: "period the App Store doesn't offer", storeKitEdit: ("\"productID\":\"app.basic.monthly\",\"recurringSubscriptionPeriod\":\"P1M\"", "\"productID\":\"app.basic.monthly\",\"recurringSubscriptionPeriod\":\"P5W\""), code: .invalidDuration, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[1].recurringSubscriptionPeriod", message: "\"P5W\" is not a subscription period the App Store offers"),
        ErrorCase(name: "bad offer duration", storeKitEdit: ("\"subscriptionPeriod\":\"P1W\"", "\"subscriptionPeriod\":\"P1Q\""), code: .invalidDuration, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod", message: "\"P1Q\" is not a duration"),
        ErrorCase(name: "bad trial length", entitlementsEdit: ("\"length\":\"P30D\",\"grace\"", "\"length\":\"30 days\",\"grace\""), code: .invalidDuration, inStoreKit: false, path: "appTrial.length", message: "\"30 days\" is not a duration"),
        ErrorCase(name: "bad non-renewing duration", entitlementsEdit: ("{\"app.pass\":\"P1Y\"}", "{\"app.pass\":\"forever\"}"), code: .invalidDuration, inStoreKit: false, path: "nonRenewingDurations[\"app.pass\"]", message: "\"forever\" is not a duration"),
        ErrorCase(name: "rolling window without length", entitlementsEdit: ("{\"window\":\"rolling\",\"length\":\"P30D\"}", "{\"window\":\"rolling\"}"), code: .invalidDuration, inStoreKit: false, path: "quotas.shares.length", message: "a rolling window needs a \"length\""),
        ErrorCase(name: "bad price", storeKitEdit: ("\"displayPrice\":\"79.99\"", "\"displayPrice\":\"79,99\""), code: .invalidPrice, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[2].displayPrice", message: "\"79,99\" is not a price"),
        ErrorCase(name: "unknown product", entitlementsEdit: ("[\"app.basic.monthly\"]", "[\"app.basic.montly\"]"), code: .unknownProduct, inStoreKit: false, path: "entitlements.basic.products[0]", message: "app.basic.montly is not a product of Test.storekit"),
        ErrorCase(name: "duplicate product in storekit", storeKitEdit: ("\"productID\":\"app.lifetime\"", "\"productID\":\"app.coins\""), code: .duplicateProduct, inStoreKit: true, path: "products[1].productID", message: "app.coins is defined twice"),
        ErrorCase(name: "duplicate product in an entitlement", entitlementsEdit: ("[\"app.basic.monthly\"]", "[\"app.basic.monthly\",\"app.basic.monthly\"]"), code: .duplicateProduct, inStoreKit: false, path: "entitlements.basic.products[1]", message: "app.basic.monthly is listed twice in this entitlement"),
        ErrorCase(name: "consumable mapped to an entitlement", entitlementsEdit: ("[\"app.basic.monthly\"]", "[\"app.basic.monthly\",\"app.coins\"]"), code: .inconsistentMapping, inStoreKit: false, path: "entitlements.basic.products[1]", message: "app.coins is a consumable"),
        ErrorCase(name: "level below 1", storeKitEdit: ("\"groupNumber\":2", "\"groupNumber\":0"), code: .invalidValue, inStoreKit: true, path: "subscriptionGroups[0].subscriptions[1].groupNumber", message: "level 0 is below 1"),
        ErrorCase(name: "non-renewing product without duration", entitlementsEdit: ("\"nonRenewingDurations\":{\"app.pass\":\"P1Y\"},", ""), code: .inconsistentMapping, inStoreKit: false, path: "nonRenewingDurations", message: "the non-renewing subscription app.pass grants an entitlement but has no duration"),
        ErrorCase(name: "duration for a product that isn't non-renewing", entitlementsEdit: ("{\"app.pass\":\"P1Y\"}", "{\"app.pass\":\"P1Y\",\"app.lifetime\":\"P1Y\"}"), code: .inconsistentMapping, inStoreKit: false, path: "nonRenewingDurations[\"app.lifetime\"]", message: "app.lifetime is not a non-renewing subscription"),
        ErrorCase(name: "undeclared feature", entitlementsEdit: ("\"features\":[\"sync\"]", "\"features\":[\"sync\",\"backup\"]"), code: .unknownFeature, inStoreKit: false, path: "entitlements.basic.features[1]", message: "\"backup\" is not a declared feature"),
        ErrorCase(name: "limit on an undeclared limit", entitlementsEdit: ("\"free\":{\"features\":[],", "\"free\":{\"features\":[],\"limits\":{\"screens\":1},"), code: .unknownFeature, inStoreKit: false, path: "free.limits.screens", message: "\"screens\" is not a declared limit"),
        ErrorCase(name: "quota on an undeclared quota", entitlementsEdit: ("\"quotas\":{\"exports\":10}", "\"quotas\":{\"exports\":10,\"prints\":3}"), code: .unknownFeature, inStoreKit: false, path: "entitlements.basic.quotas.prints", message: "\"prints\" is not a declared quota"),
        ErrorCase(name: "log-in token key that is not P-256", entitlementsEdit: ("\"futureKey\":true,", "\"futureKey\":true,\"logInTokens\":{\"publicKeys\":{\"backend\":\"\(ed25519PEM)\"}},"), code: .invalidValue, inStoreKit: false, path: "logInTokens.publicKeys.backend", message: "the key backend is not a P-256 public key in PEM"),
        ErrorCase(name: "log-in tokens without a key", entitlementsEdit: ("\"futureKey\":true,", "\"futureKey\":true,\"logInTokens\":{\"publicKeys\":{}},"), code: .invalidValue, inStoreKit: false, path: "logInTokens.publicKeys", message: "log-in tokens need at least one public key"),
        ErrorCase(name: "trial granting an unknown entitlement", entitlementsEdit: ("\"entitlements\":[\"pro\"]", "\"entitlements\":[\"premium\"]"), code: .unknownEntitlement, inStoreKit: false, path: "appTrial.entitlements[0]", message: "\"premium\" is not an entitlement of this file"),
    ]

    @Test("each catalog error has its code, file, path and message", arguments: errorCases)
    func reportsError(_ errorCase: ErrorCase) {
        var storeKit = Self.storeKit
        var entitlements = Self.entitlements
        if let (old, new) = errorCase.storeKitEdit {
            #expect(storeKit.contains(old), "the edit must apply")
            storeKit = storeKit.replacingOccurrences(of: old, with: new)
        }
        if let (old, new) = errorCase.entitlementsEdit {
            #expect(entitlements.contains(old), "the edit must apply")
            entitlements = entitlements.replacingOccurrences(of: old, with: new)
        }
        #expect {
            _ = try Self.load(storeKit: storeKit, entitlements: entitlements)
        } throws: { error in
            guard let validation = error as? CatalogValidationError, let first = validation.errors.first else { return false }
            return first.code == errorCase.code
                && first.file == (errorCase.inStoreKit ? "Test.storekit" : "entitlements.json")
                && first.path == errorCase.path
                && first.message.hasPrefix(errorCase.message)
        }
    }

    @Test("a near-miss product id gets a suggestion; a far one the list of products")
    func hints() throws {
        let near = Self.entitlements.replacingOccurrences(of: "[\"app.basic.monthly\"]", with: "[\"app.basic.montly\"]")
        let far = Self.entitlements.replacingOccurrences(of: "[\"app.basic.monthly\"]", with: "[\"com.other.thing\"]")
        let nearError = try #require(Self.errors(entitlements: near).first)
        let farError = try #require(Self.errors(entitlements: far).first)
        #expect(nearError.hint == "did you mean app.basic.monthly?")
        #expect(farError.hint == "products: app.basic.monthly, app.coins, app.lifetime, app.pass, app.pro.monthly, app.pro.yearly")
    }

    @Test("a higher-level product granting less than a lower one is reported with what it lacks")
    func levelOrder() throws {
        let swapped = Self.storeKit.replacingOccurrences(of: "\"groupNumber\":2", with: "\"groupNumber\":9")
            .replacingOccurrences(of: "\"groupNumber\":1", with: "\"groupNumber\":3")
            .replacingOccurrences(of: "\"groupNumber\":9", with: "\"groupNumber\":1")
        let errors = Self.errors(storeKit: swapped)
        #expect(errors.map(\.code) == [.inconsistentMapping, .inconsistentMapping])
        #expect(errors.map(\.path) == ["subscriptionGroups[0].subscriptions[0].groupNumber", "subscriptionGroups[0].subscriptions[2].groupNumber"])
        #expect(errors.first?.message == "app.pro.monthly (level 3) grants export, devices 5, exports unlimited, shares 50, which app.basic.monthly (level 1, a higher level of service) does not")
    }

    @Test("seed 004's own .storekit puts Individual above Family, which the loader rejects")
    func seed004LevelOrder() throws {
        #expect {
            _ = try CatalogLoader().load(directory: Fixtures.catalogs.appendingPathComponent("Seed004Literal"))
        } throws: { error in
            let errors = (error as? CatalogValidationError)?.errors ?? []
            return errors.count == 1 && errors[0].code == .inconsistentMapping
                && errors[0].path == "subscriptionGroups[0].subscriptions[1].groupNumber"
                && errors[0].message.hasPrefix("com.screentimerewards.family.monthly (level 2) grants analytics.advanced")
        }
    }

    @Test("every problem of a broken folder is reported at once, in file and document order")
    func collectsEverything() {
        let errors = Self.errors(directory: Fixtures.catalogs.appendingPathComponent("Broken"))
        #expect(errors.map(\.code.rawValue) == [
            "catalog.invalidDuration", "catalog.invalidPrice", "catalog.invalidDuration", "catalog.duplicateProduct",
            "catalog.invalidValue", "catalog.unknownProduct", "catalog.duplicateProduct", "catalog.inconsistentMapping",
            "catalog.unknownFeature", "catalog.invalidValue", "catalog.unknownFeature", "catalog.inconsistentMapping",
            "catalog.invalidDuration", "catalog.unknownEntitlement",
        ])
    }

    @Test("every example app loads", arguments: Fixtures.exampleNames)
    func examplesLoad(name: String) throws {
        let catalog = try CatalogLoader().load(directory: Fixtures.examples.appendingPathComponent(name))
        #expect(!catalog.entitlements.isEmpty)
        #expect(catalog.products.allSatisfy { !$0.entitlementIDs.isEmpty })
    }

    @Test("a folder without entitlements.json, or without a .storekit file, says which file is missing")
    func missingFiles() throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        let noFile = Self.errors(directory: empty)
        #expect(noFile.map(\.code) == [.unreadableFile])
        #expect(noFile.first?.message == "cannot read the file: no such file")

        try Data(Self.entitlements.utf8).write(to: empty.appendingPathComponent("entitlements.json"))
        let noStoreKit = Self.errors(directory: empty)
        #expect(noStoreKit.map(\.code) == [.storeKitFileNotFound])
        #expect(noStoreKit.first?.path == "storeKit")
    }

    static func errors(storeKit: String = storeKit, entitlements: String = entitlements) -> [CatalogError] {
        do {
            _ = try load(storeKit: storeKit, entitlements: entitlements)
            return []
        } catch {
            return error.errors
        }
    }

    static func errors(directory: URL) -> [CatalogError] {
        do {
            _ = try CatalogLoader().load(directory: directory)
            return []
        } catch {
            return error.errors
        }
    }
}
