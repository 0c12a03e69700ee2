/// One arm of an experiment: the offering its subscribers are served, and its share of them.
public struct ExperimentVariant: Hashable, Sendable, Codable {
    public var id: String
    public var offeringID: String
    /// Its share, against the other variants' weights (1 to 1,000).
    public var weight: Int

    public init(id: String, offeringID: String, weight: Int = 1) {
        self.id = id
        self.offeringID = offeringID
        self.weight = weight
    }
}
