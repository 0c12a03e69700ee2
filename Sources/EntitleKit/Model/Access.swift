import EntitleWire
import Foundation

/// May the user do something now: a feature, a limit at a count, a quota's use. Decided by EntitleCore's
/// gate, the function the server answers with, so the app and the server never disagree.
public struct Access: Sendable, Hashable {
    /// The answer itself.
    public enum Outcome: WireMapped {
        case allowed
        /// Allowed, but the app should warn (a billing issue in its grace period, the app's trial in its
        /// warning days): ``Access/reason`` says which.
        case allowedWithWarning
        case denied
        /// An outcome this version of EntitleKit doesn't know (treated as denied by ``Access/isAllowed``).
        case other(String)

        static let cases: [(wire: AccessOutcome, value: Outcome)] = [
            (.allowed, .allowed), (.allowedWithWarning, .allowedWithWarning), (.denied, .denied),
        ]

        var otherValue: String? { if case .other(let value) = self { value } else { nil } }


        /// The value as the API spells it.

        public var rawValue: String { wireRawValue }

        public var description: String { wireRawValue }
    }

    /// The feature, limit or quota asked about.
    public var feature: String
    public var outcome: Outcome
    /// Why it is denied or warned; `nil` when simply allowed.
    public var reason: Reason?
    /// The paywall to show for a denial or a warning.
    public var paywall: Paywall?
    /// For a limit or a quota: how much is allowed; `nil` for a plain feature.
    public var limit: Limit?
    /// For a quota: the usage now.
    public var quota: Quota?
    /// The server's clock the answer was decided against (the signed answer's, when cached).
    public var serverTime: Date

    /// Whether the user may go ahead (with or without a warning).
    public var isAllowed: Bool { outcome == .allowed || outcome == .allowedWithWarning }

    init(_ wire: AccessResponse) {
        feature = wire.feature
        outcome = Outcome(wire.outcome)
        reason = wire.reason.map(Reason.init)
        paywall = wire.paywall.map(Paywall.init)
        limit = wire.allowance.map { Limit($0.maximum) }
        quota = wire.quota.map(Quota.init)
        serverTime = wire.serverTime
    }
}
