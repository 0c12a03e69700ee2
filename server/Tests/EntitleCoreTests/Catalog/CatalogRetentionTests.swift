import EntitleCore
import Foundation
import Testing

/// The entitlements file's retention messages, and the rule that picks one when Apple asks.
@Suite("Retention rules")
struct CatalogRetentionTests {
    static let switchMessage = UUID(uuidString: "6D2F1C9E-3A4B-4C5D-8E7F-0A1B2C3D4E5F")!
    static let offerMessage = UUID(uuidString: "1A2B3C4D-5E6F-4A1B-8C2D-3E4F5A6B7C8D")!
    static let plainMessage = UUID(uuidString: "9B8A7C6D-5E4F-4A3B-9C2D-1E0F2A3B4C5D")!
    static let rules = """
        "retentionMessages":[\
        {"products":["app.pro.yearly"],"locales":["en"],"alternateProduct":"app.pro.monthly","message":"\(switchMessage)"},\
        {"products":["app.pro.monthly"],"promotionalOffer":"promo.half","message":"\(offerMessage)"},\
        {"locales":["en","fr-CA"],"message":"\(plainMessage)"}]
        """

    static func catalog() throws -> Catalog {
        try CatalogLoaderTests.load(entitlements: CatalogOfferingsTests.with(rules))
    }

    @Test("the rules are read in order, with their products, locales and offers")
    func declared() throws {
        #expect(try Self.catalog().retentionRules == [
            RetentionRule(products: ["app.pro.yearly"], locales: ["en"], action: .alternateProduct("app.pro.monthly", message: Self.switchMessage)),
            RetentionRule(products: ["app.pro.monthly"], action: .promotionalOffer(offerID: "promo.half", message: Self.offerMessage)),
            RetentionRule(locales: ["en", "fr-CA"], action: .message(Self.plainMessage)),
        ])
        #expect(try CatalogLoaderTests.load().retentionRules.isEmpty)
    }

    @Test("the first rule that applies and whose offer can be made answers", arguments: [
        // The yearly subscriber in English: the switch to monthly.
        ("app.pro.yearly", "en-US", true, 0),
        ("app.pro.yearly", "en_GB", true, 0),
        // In German the switch doesn't apply, nor does the English message: nothing (Apple's default).
        ("app.pro.yearly", "de-DE", true, nil),
        // The monthly subscriber: the promotional offer, when it can be signed and the customer is eligible…
        ("app.pro.monthly", "de-DE", true, 1),
        // …else the next rule that applies.
        ("app.pro.monthly", "en-US", false, 2),
        ("app.pro.monthly", "fr-CA", false, 2),
        ("app.pro.monthly", "fr-FR", false, nil),
        // A product the rules don't name, whose group has no other product: the plain message.
        ("app.basic.monthly", "en", true, 2),
    ] as [(String, String, Bool, Int?)])
    func choose(product: String, locale: String, offerAllowed: Bool, expected: Int?) throws {
        let catalog = try Self.catalog()
        let chosen = RetentionRule.choose(among: catalog.retentionRules, productID: ProductID(product), locale: locale, catalog: catalog) { _ in offerAllowed }
        #expect(chosen == expected.map { catalog.retentionRules[$0] })
    }

    @Test("a switch offered to the product it switches from is never chosen")
    func noSwitchToItself() throws {
        let catalog = try Self.catalog()
        let rules = [RetentionRule(action: .alternateProduct("app.pro.monthly", message: Self.switchMessage))]
        #expect(RetentionRule.choose(among: rules, productID: "app.pro.monthly", locale: "en", catalog: catalog) { _ in true } == nil)
        #expect(RetentionRule.choose(among: rules, productID: "app.pro.yearly", locale: "en", catalog: catalog) { _ in true } == rules[0])
    }

    @Test("every mistake is reported with its path", arguments: [
        (#""retentionMessages":[{"products":["app.nope"],"message":"6D2F1C9E-3A4B-4C5D-8E7F-0A1B2C3D4E5F"}]"#, "retentionMessages[0].products[0]"),
        (#""retentionMessages":[{"products":["app.lifetime"],"message":"6D2F1C9E-3A4B-4C5D-8E7F-0A1B2C3D4E5F"}]"#, "retentionMessages[0].products[0]"),
        (#""retentionMessages":[{"message":"not-a-uuid"}]"#, "retentionMessages[0].message"),
        (#""retentionMessages":[{"locales":["english"],"message":"6D2F1C9E-3A4B-4C5D-8E7F-0A1B2C3D4E5F"}]"#, "retentionMessages[0].locales[0]"),
        (#""retentionMessages":[{}]"#, "retentionMessages[0]"),
        (#""retentionMessages":[{"alternateProduct":"app.pro.monthly"}]"#, "retentionMessages[0].message"),
        (#""retentionMessages":[{"products":["app.pro.yearly"],"alternateProduct":"app.lifetime","message":"6D2F1C9E-3A4B-4C5D-8E7F-0A1B2C3D4E5F"}]"#, "retentionMessages[0].alternateProduct"),
        (#""retentionMessages":[{"products":["app.pro.yearly"],"alternateProduct":"app.pro.yearly","message":"6D2F1C9E-3A4B-4C5D-8E7F-0A1B2C3D4E5F"}]"#, "retentionMessages[0].alternateProduct"),
        (#""retentionMessages":[{"promotionalOffer":"promo.half"}]"#, "retentionMessages[0].products"),
        (#""retentionMessages":[{"products":["app.pro.yearly"],"promotionalOffer":"promo.half"}]"#, "retentionMessages[0].promotionalOffer"),
        (#""retentionMessages":[{"products":["app.pro.monthly"],"promotionalOffer":"promo.half","alternateProduct":"app.pro.yearly"}]"#, "retentionMessages[0]"),
    ])
    func mistakes(json: String, path: String) {
        let errors = CatalogLoaderTests.errors(entitlements: CatalogOfferingsTests.with(json))
        #expect(errors.map(\.path).contains(path), "\(errors.map { "\($0.path): \($0.message)" })")
    }
}
