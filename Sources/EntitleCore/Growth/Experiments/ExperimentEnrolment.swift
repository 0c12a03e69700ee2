import Foundation

/// A subscriber's enrolment in an experiment, recorded on the ledger when the experiment first
/// served them: which variant and offering, when, and the window its revenue is counted over (copied
/// from the experiment, so the results are a fold of the ledger alone).
public struct ExperimentEnrolment: Hashable, Sendable, Codable {
    public var experimentID: String
    public var variantID: String
    public var offeringID: String
    public var at: Date
    public var revenueWindowDays: Int

    public init(experimentID: String, variantID: String, offeringID: String, at: Date, revenueWindowDays: Int) {
        self.experimentID = experimentID
        self.variantID = variantID
        self.offeringID = offeringID
        self.at = at
        self.revenueWindowDays = revenueWindowDays
    }

    /// Whether this enrolment stands against `other` of the same experiment: the earlier one (at the
    /// same instant, the smaller variant ID), so any order of the same events, or a log-in that brings
    /// another device's enrolment, gives the same variant.
    public func precedes(_ other: ExperimentEnrolment) -> Bool {
        (at, variantID) < (other.at, other.variantID)
    }
}
