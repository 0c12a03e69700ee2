import EntitleCore

/// Which recent subscribers the dashboard lists: those with a purchase in `state`, of `productID`
/// (both when both are given).
public struct SubscriberFilter: Hashable, Sendable {
    public var state: SubscriptionState?
    public var productID: ProductID?

    public init(state: SubscriptionState? = nil, productID: ProductID? = nil) {
        self.state = state
        self.productID = productID
    }

    /// The filter a form gives: an empty field filters nothing; a state or product not of `catalog`
    /// is refused (`request.invalid`).
    public init(state: String?, product: String?, catalog: Catalog) throws(ServiceError) {
        let state = state.flatMap { $0.isEmpty ? nil : $0 }
        let product = product.flatMap { $0.isEmpty ? nil : $0 }
        if let state, SubscriptionState(rawValue: state) == nil {
            throw ServiceError(.invalidRequest, "state is one of \(SubscriptionState.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let product, catalog.product(ProductID(product)) == nil {
            throw ServiceError(.invalidRequest, "\(product) is not a product of this app")
        }
        self.init(state: state.flatMap(SubscriptionState.init(rawValue:)), productID: product.map(ProductID.init))
    }

    var isEmpty: Bool { state == nil && productID == nil }

    func admits(_ purchases: [SubscriberListing.Purchase]) -> Bool {
        isEmpty || purchases.contains { (state == nil || $0.state == state) && (productID == nil || $0.productID == productID) }
    }
}
