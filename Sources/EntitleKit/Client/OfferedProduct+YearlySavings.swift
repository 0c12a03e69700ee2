import EntitleCore
import EntitleWire

extension OfferedProduct {
    /// What the paywall says of a yearly product's saving against twelve months of its monthly
    /// counterpart ("Save 17%", EntitleCore's ``YearlySavings/label(percent:)``); `nil` when it has none.
    public var yearlySavingsLabel: String? { yearlySavingsPercent.map { YearlySavings.label(percent: $0) } }
}
