/// What a restore found (seed 001's "No active subscriptions found."): the customer info after it,
/// and whether the store held a purchase that is active.
public enum RestoreOutcome: Sendable {
    /// The store's purchases were delivered and at least one entitlement comes from an active one.
    case restored(CustomerInfo)
    /// The store holds no active purchase of this app for the user: nothing was restored.
    case nothingToRestore(CustomerInfo)

    /// The customer info after the restore, either way.
    public var customerInfo: CustomerInfo {
        switch self {
        case .restored(let info), .nothingToRestore(let info): info
        }
    }

    /// What to tell the user when there was nothing to restore.
    public var message: String? {
        if case .nothingToRestore = self { return "No active subscriptions found." }
        return nil
    }
}
