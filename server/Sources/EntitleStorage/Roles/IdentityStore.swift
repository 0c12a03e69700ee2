import EntitleCore
import Foundation

/// Who owns what: purchases linked to subscribers, appAccountTokens, anonymous subscribers merged at
/// log-in, purchases transferred on a restore. Each change moves the projections it touches in the
/// same transaction.
public protocol IdentityStore: Sendable {
    /// Registers `token` as `appUserID`'s appAccountToken (idempotent), and links to the subscriber every
    /// purchase that arrived with that token before anyone owned it. A token another subscriber holds
    /// is not moved.
    func registerAccountToken(_ token: UUID, appUserID: AppUserID, at: Date) async throws(StorageError) -> AccountTokenRegistration

    /// The subscriber `token` is registered for.
    func accountTokenOwner(_ token: UUID) async throws(StorageError) -> AppUserID?

    /// Merges the anonymous subscriber `anonymous` into `known` (a log-in), in one transaction: a
    /// `subscriberMerged` event on each (the known one's carrying the anonymous facts), the anonymous
    /// purchases and appAccountTokens moved, and `anonymous` made an alias of `known`. Idempotent; two
    /// log-ins at once serialise on the subscribers' locks.
    func merge(anonymous: AppUserID, into known: AppUserID, at: Date) async throws(StorageError) -> MergeOutcome

    /// The subscriber `appUserID` was merged into, if it was.
    func aliasTarget(_ appUserID: AppUserID) async throws(StorageError) -> AppUserID?

    /// Moves a purchase to `appUserID` (a restore onto another account): the link moves, the previous
    /// owner's projection loses the purchase and the new owner's gains it, each side recording an
    /// event, all in one transaction. Returns the previous owner (`nil` when none: nothing moves).
    func transfer(originalTransactionID: OriginalTransactionID, to appUserID: AppUserID, at: Date) async throws(StorageError) -> AppUserID?

    /// The subscriber a purchase is linked to.
    func owner(originalTransactionID: OriginalTransactionID) async throws(StorageError) -> AppUserID?

    /// The owners of those of `originalTransactionIDs` that are linked to a subscriber.
    func owners(originalTransactionIDs: Set<OriginalTransactionID>) async throws(StorageError) -> [OriginalTransactionID: AppUserID]
}
