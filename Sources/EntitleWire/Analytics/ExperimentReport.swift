import Foundation

/// An experiment's results per variant, from aggregate cells alone (docs/growth.md).
public struct ExperimentReport: Hashable, Sendable, Codable {
    public var experimentID: String
    /// The control (the experiment's first variant) first.
    public var variants: [VariantResult]
    /// The currencies revenue came in.
    public var currencies: [String]

    public init(experimentID: String, variants: [VariantResult], currencies: [String]) {
        self.experimentID = experimentID
        self.variants = variants
        self.currencies = currencies
    }
}
