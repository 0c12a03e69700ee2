import EntitleWire

/// What this user's paywall offers: the offering served now (an experiment's variant, the catalog's
/// targeting, else its default) and every offering by ID.
public struct Offerings: Sendable, Hashable {
    /// Why the current offering is the one served.
    public enum ServedBy: Sendable, Hashable {
        case experiment(id: String, variant: String)
        case rolledOut
        case targeting
        case `default`
        case other(String)
    }

    /// The offering to show now.
    public var current: Offering?
    public var all: [Offering]
    /// Why ``current`` was served; `nil` when the server didn't say (offerings not asked for a user).
    public var servedBy: ServedBy?

    /// The offering `id`.
    public subscript(id: String) -> Offering? { all.first { $0.id == id } }

    /// The package of `productID` in any offering.
    func package(_ productID: String) -> Package? { all.lazy.compactMap { $0.package(productID) }.first }

    init(_ wire: OfferingsResponse) {
        all = wire.offerings.map(Offering.init)
        current = all.first { $0.id == wire.currentOfferingID }
        servedBy = wire.servedBy.map { served in
            switch served {
            case "experiment": .experiment(id: wire.experimentID ?? "", variant: wire.variantID ?? "")
            case "rolled_out": .rolledOut
            case "targeting": .targeting
            case "default": .default
            default: .other(served)
            }
        }
    }
}
