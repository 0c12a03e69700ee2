import Foundation

/// What happens when an app user submits a purchase another app user already owns (a restore onto a
/// new account or install).
public enum RestorePolicy: String, Sendable, CaseIterable {
    /// The purchase stays with the subscriber it was first linked to; the newcomer is refused.
    case keepWithOriginal = "keep"
}
