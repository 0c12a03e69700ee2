import Foundation

/// What became of a recorded use.
public enum UsageResult: Sendable, Hashable {
    /// The server counted it: its answer for the quota after the use.
    case counted(Access)
    /// The server can't be reached: the use waits on disk (with `pending` uses in all) and is sent, once,
    /// when it can. One the server then refuses is reported in ``CustomerInfo/refusedUses``, through
    /// ``Entitle/customerInfoUpdates()``.
    case queued(pending: Int)
}
