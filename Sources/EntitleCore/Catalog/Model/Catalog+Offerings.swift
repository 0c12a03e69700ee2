extension Catalog {
    /// The offering every app has: its products, as the paywall shows them.
    public static let defaultOfferingID = "default"

    /// The offerings a paywall may show, and events may name.
    public var offeringIDs: [String] { [Self.defaultOfferingID] }
}
