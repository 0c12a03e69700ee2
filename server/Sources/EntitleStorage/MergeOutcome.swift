import EntitleCore
import Foundation

/// What merging an anonymous subscriber did.
public enum MergeOutcome: Hashable, Sendable {
    /// Merged now.
    case merged
    /// Already merged into the same subscriber (a repeated log-in): nothing changed.
    case alreadyMerged
    /// Already merged into another subscriber, which it stays.
    case mergedElsewhere(AppUserID)
}
