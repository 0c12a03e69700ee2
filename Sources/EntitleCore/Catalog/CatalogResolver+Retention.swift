import Foundation

extension CatalogResolver {
    /// The entitlements file's retention messages, checked against the products: each rule names a message
    /// (a UUID) unless it offers a promotional offer alone; its products are auto-renewable subscriptions; an
    /// alternate product is one too, in the group of every product listed and not one of them; a promotional
    /// offer is one every listed product has, and needs the products listed.
    mutating func resolveRetentionMessages(products: [String: Product]) -> [RetentionRule] {
        var rules: [RetentionRule] = []
        for (index, rule) in document.retentionMessages.enumerated() {
            let path = JSONPath().key("retentionMessages").index(index)
            let listed = rule.products ?? []
            var valid = true
            for (position, id) in listed.enumerated() {
                guard let product = products[id] else {
                    fail(.unknownProduct, entitlements: path.key("products").index(position), "\(id) is not a product of \(storeKitFile)",
                         hint: suggestion(for: id, among: Array(products.keys)))
                    valid = false
                    continue
                }
                if product.kind != .autoRenewable {
                    fail(.invalidValue, entitlements: path.key("products").index(position), "\(id) is not an auto-renewable subscription: Apple asks only about those")
                    valid = false
                }
            }
            for (position, locale) in (rule.locales ?? []).enumerated() where !Self.isLocale(locale) {
                fail(.invalidValue, entitlements: path.key("locales").index(position), "\"\(locale)\" is not a language or a language and region", hint: "en, or en-GB")
                valid = false
            }
            let message = rule.message.flatMap(UUID.init(uuidString:))
            if let text = rule.message, message == nil {
                fail(.invalidValue, entitlements: path.key("message"), "\"\(text)\" is not a message identifier", hint: "the UUID the message was uploaded with")
                valid = false
            }
            let action: RetentionRule.Action?
            switch (rule.alternateProduct, rule.promotionalOffer) {
            case (let alternate?, nil):
                if let problem = alternateProblem(alternate, listed: listed, products: products) {
                    fail(.inconsistentMapping, entitlements: path.key("alternateProduct"), problem)
                    valid = false
                }
                if message == nil, rule.message == nil {
                    fail(.invalidValue, entitlements: path.key("message"), "a switch-plan message needs the message it is shown with")
                    valid = false
                }
                action = message.map { .alternateProduct(ProductID(alternate), message: $0) }
            case (nil, let offer?):
                if listed.isEmpty {
                    fail(.invalidValue, entitlements: path.key("products"), "a promotional offer is a product's: list the products it is offered for")
                    valid = false
                }
                for id in listed where products[id].map({ !$0.promotionalOffers.contains { $0.id == offer } }) ?? false {
                    fail(.inconsistentMapping, entitlements: path.key("promotionalOffer"), "\(id) has no promotional offer \(offer)")
                    valid = false
                }
                action = .promotionalOffer(offerID: offer, message: message)
            case (nil, nil):
                if rule.message == nil {
                    fail(.invalidValue, entitlements: path, "a rule names a message, an alternate product or a promotional offer")
                    valid = false
                }
                action = message.map { .message($0) }
            case (.some, .some):
                fail(.invalidValue, entitlements: path, "a rule offers an alternate product or a promotional offer, not both")
                valid = false
                action = nil
            }
            if valid, let action {
                rules.append(RetentionRule(products: listed.map { ProductID($0) }, locales: rule.locales ?? [], action: action))
            }
        }
        return rules
    }

    private func alternateProblem(_ alternate: String, listed: [String], products: [String: Product]) -> String? {
        guard let product = products[alternate] else { return "\(alternate) is not a product of \(storeKitFile)" }
        guard product.kind == .autoRenewable else { return "\(alternate) is not an auto-renewable subscription" }
        if listed.contains(alternate) { return "\(alternate) is one of the products the rule applies to: offer another" }
        for id in listed where products[id].map({ $0.subscriptionGroupID != product.subscriptionGroupID }) ?? false {
            return "\(alternate) is not in the subscription group of \(id): Apple switches within a group"
        }
        return nil
    }

    /// `en`, `en-GB`, `zh-Hant-TW`: a 2–3 letter language, then subtags of 2–8 letters or digits.
    static func isLocale(_ text: String) -> Bool {
        let parts = text.replacingOccurrences(of: "_", with: "-").split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, (2...3).contains(language.count), language.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return parts.dropFirst().allSatisfy { (2...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }
}
