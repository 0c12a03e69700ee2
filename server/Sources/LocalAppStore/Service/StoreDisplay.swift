import EntitleCore
import Foundation

/// How the local App Store shows a catalog's products, over HTTP (`/local-store/v1/…/products`) and as
/// StoreKit's backend alike: a product's first localization's name (else its reference name, else its
/// ID), a price with the currency code the catalog gives.
public enum StoreDisplay {
    public static func name(of product: Product) -> String {
        product.localizations.first?.displayName ?? product.referenceName ?? product.id.rawValue
    }

    public static func price(_ price: Price?, in catalog: Catalog) -> String {
        price.map { "\($0.currency ?? catalog.currency ?? "") \($0.formattedAmount)".trimmingCharacters(in: .whitespaces) } ?? ""
    }
}
