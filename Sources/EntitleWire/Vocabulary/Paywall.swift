import Foundation

/// The paywall an app shows for a denial or a lapse.
public struct Paywall: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let subscribe = Paywall(rawValue: "subscribe")
    public static let renew = Paywall(rawValue: "renew")
    public static let upgrade = Paywall(rawValue: "upgrade")
    public static let convertTrial = Paywall(rawValue: "convert_trial")
    public static let updatePayment = Paywall(rawValue: "update_payment")

    public static let known: [Paywall] = [.subscribe, .renew, .upgrade, .convertTrial, .updatePayment]
}
