/// `POST /v1/experiments/{id}/rollout`: the variant whose offering everyone the experiment admits is served.
public struct RollOutRequest: Codable, Hashable, Sendable {
    public var variantID: String

    public init(variantID: String) {
        self.variantID = variantID
    }
}
