/// Which offering a subscriber is served, by the catalog's rules: the first targeting rule that
/// matches, else the default offering. The server and EntitleKit both answer with this.
public enum OfferingTargeting {
    /// The offering `catalog` serves in `context`, and the position of the rule that chose it (`nil`:
    /// the default).
    public static func offering(in catalog: Catalog, for context: TargetingContext) -> (offeringID: String, rule: Int?) {
        for (index, rule) in catalog.targeting.enumerated() where rule.matches(context) {
            return (rule.offeringID, index)
        }
        return (catalog.defaultOfferingID, nil)
    }
}
