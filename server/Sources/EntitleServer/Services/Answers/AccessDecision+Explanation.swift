import EntitleCore
import Foundation

extension AccessDecision {
    /// A one-line account of a denial, for error messages.
    var explanation: String {
        switch reason {
        case .quotaExhausted(let limit, let resetsAt?):
            "\(feature) is used up (\(limit) per window) until \(resetsAt.formatted(.iso8601))"
        case .quotaExhausted(let limit, nil):
            "\(feature) is used up (\(limit) per window)"
        case let reason?:
            "\(feature) is denied: \(reason.code)"
        case nil:
            "\(feature) is denied"
        }
    }
}
