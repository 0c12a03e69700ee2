import EntitleCore
import Foundation

/// What the subscriber may do during a stretch of time: the ``gate`` every access question is decided
/// with (by the server, and by EntitleKit offline, with the same function), and the decisions at usage 1
/// for every feature, limit and quota the app declares. The first period starts at the answer's server
/// time; the next starts when the answer changes with no new event (an expiry, a trial's end, a quota
/// reset).
public struct AccessPeriod: Codable, Hashable, Sendable {
    public var from: Date
    /// When the next period starts; `nil` when nothing known changes the answer.
    public var until: Date?
    /// The decisions at usage 1, by feature: what a client without EntitleCore can gate with.
    public var decisions: [String: AccessResponse]
    /// Everything an access question needs during the period (``AccessGate/decide(_:usage:pendingUse:)``);
    /// `nil` only in answers cached before servers sent it.
    public var gate: AccessGate?

    public init(from: Date, until: Date?, decisions: [String: AccessResponse], gate: AccessGate? = nil) {
        self.from = from
        self.until = until
        self.decisions = decisions
        self.gate = gate
    }
}
