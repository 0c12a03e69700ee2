import EntitleCore
import Foundation

/// The human-readable rendering of a resolved catalog that `entitle check` prints.
struct CatalogReport {
    let catalog: Catalog
    let source: String

    var text: String {
        var lines: [String] = []
        let about = [catalog.appName, catalog.bundleID?.rawValue, catalog.currency].compactMap { $0 }.joined(separator: ", ")
        lines.append("Catalog \(source)\(about.isEmpty ? "" : " (\(about))")")

        lines.append("")
        lines.append("Products (\(catalog.products.count))")
        for product in catalog.products {
            var facts = [product.kind.rawValue.replacingOccurrences(of: "_", with: "-")]
            if let period = product.period { facts.append(period.description) }
            if let price = product.price { facts.append(price.description) }
            if let group = catalog.subscriptionGroups.first(where: { $0.id == product.subscriptionGroupID }), let level = product.groupLevel {
                facts.append("group \"\(group.name ?? group.id)\" level \(level)")
            }
            if product.familyShareable { facts.append("family-shareable") }
            lines.append("  \(product.id): \(product.displayName()); \(facts.joined(separator: ", "))")
            if let offer = product.introductoryOffer { lines.append("    introductory offer: \(describe(offer))") }
            for offer in product.promotionalOffers { lines.append("    promotional offer: \(describe(offer))") }
            for offer in product.offerCodes { lines.append("    offer code: \(describe(offer))") }
            for offer in product.winBackOffers { lines.append("    win-back offer: \(describe(offer))") }
            lines.append("    grants: \(product.entitlementIDs.isEmpty ? "nothing" : product.entitlementIDs.joined(separator: ", "))")
        }

        lines.append("")
        lines.append("Entitlements (\(catalog.entitlements.count))")
        for entitlement in catalog.entitlements {
            lines.append("  \(entitlement.id)\(entitlement.displayName.map { " (\($0))" } ?? "")")
            lines.append("    products: \(entitlement.productIDs.map(\.rawValue).joined(separator: ", "))")
            lines += describe(entitlement.access, indent: "    ")
        }

        lines.append("")
        lines.append("Free tier")
        lines += describe(catalog.free, indent: "    ")

        if !catalog.quotas.isEmpty {
            lines.append("")
            lines.append("Quotas")
            for quota in catalog.quotas {
                let free = catalog.free.quota(quota.name)
                let paid = catalog.entitlements.map { "\($0.id) \($0.access.quota(quota.name))" }
                lines.append("  \(quota.name): per \(quota.window); free \(free), \(paid.joined(separator: ", "))")
            }
        }

        if let trial = catalog.appTrial {
            lines.append("")
            lines.append("App-managed trial")
            var text = "  \(trial.length) from first launch granting \(trial.entitlementIDs.joined(separator: ", "))"
            if let grace = trial.grace {
                text += ", then \(grace) of warnings granting \(trial.graceEntitlementIDs.joined(separator: ", "))"
            }
            text += ", then lockout"
            lines.append(text)
            if trial.graceAfterSubscriptionExpiry, let grace = trial.grace {
                lines.append("  the same \(grace) of warnings follows the end of a paid subscription")
            }
            if trial.lockoutAccess != .nothing {
                lines.append("  lockout still allows:")
                lines += describe(trial.lockoutAccess, indent: "    ")
            }
        }

        let savings = catalog.yearlySavings
        if !savings.isEmpty {
            lines.append("")
            lines.append("Savings")
            for saving in savings {
                lines.append(
                    "  \(saving.yearlyProductID): \(saving.yearlyPrice.formattedAmount)/year vs \(saving.monthlyPrice.formattedAmount)/month "
                        + "(\(Price(amount: saving.monthlyPrice.amount * 12).formattedAmount)/year) saves \(saving.percent)%")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func describe(_ offer: SubscriptionOffer) -> String {
        let mode: String
        switch offer.paymentMode {
        case .freeTrial: mode = "free trial"
        case .payAsYouGo: mode = "pay as you go"
        case .payUpFront: mode = "pay up front"
        }
        var text = "\(mode) \(offer.period)"
        if offer.numberOfPeriods > 1 { text += " × \(offer.numberOfPeriods)" }
        if let price = offer.price { text += " at \(price)" }
        if let id = offer.id { text += " [\(id)]" }
        return text
    }

    private func describe(_ level: AccessLevel, indent: String) -> [String] {
        let features = level.features.sorted()
        var lines = ["\(indent)features: \(features.isEmpty ? "none" : features.joined(separator: ", "))"]
        if !level.limits.isEmpty {
            lines.append("\(indent)limits: " + level.limits.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        if !level.quotas.isEmpty {
            lines.append("\(indent)quotas: " + level.quotas.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        return lines
    }
}
