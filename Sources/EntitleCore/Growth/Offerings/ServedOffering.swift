import Foundation

/// The offering a subscriber is served and why: an experiment's variant (with the enrolment to record
/// when it is new), a targeting rule, or the default.
public struct ServedOffering: Hashable, Sendable {
    public enum Reason: Hashable, Sendable {
        case experiment(id: String, variantID: String)
        /// An experiment rolled out: its variant for everyone it admits.
        case rolledOut(experimentID: String, variantID: String)
        case targeting(rule: Int)
        case `default`
    }

    public var offeringID: String
    public var reason: Reason
    /// The enrolment to record: the subscriber was served the experiment for the first time.
    public var newEnrolment: ExperimentEnrolment?

    public init(offeringID: String, reason: Reason, newEnrolment: ExperimentEnrolment? = nil) {
        self.offeringID = offeringID
        self.reason = reason
        self.newEnrolment = newEnrolment
    }

    /// What `catalog` serves a subscriber in `context` with `enrolments`, given the app's `experiments`,
    /// at `now`. The first experiment (in the order given) that is running, paused or rolled out and whose
    /// audience admits the subscriber decides: an enrolled subscriber keeps their variant while it runs or
    /// is paused; a running one enrols whoever it hasn't by ``ExperimentAssignment``; a rolled-out one
    /// serves its chosen variant. Otherwise targeting, then the default. A variant whose offering the
    /// catalog no longer declares is passed over.
    public static func serve(
        catalog: Catalog, experiments: [Experiment], appUserID: AppUserID, enrolments: [String: ExperimentEnrolment], context: TargetingContext, now: Date
    ) -> ServedOffering {
        for experiment in experiments where experiment.admits(context) {
            switch experiment.state {
            case .running, .paused:
                if let enrolment = enrolments[experiment.id], catalog.offering(enrolment.offeringID) != nil {
                    return ServedOffering(offeringID: enrolment.offeringID, reason: .experiment(id: experiment.id, variantID: enrolment.variantID))
                }
                guard experiment.state == .running, let variant = ExperimentAssignment.variant(of: experiment, for: appUserID),
                    catalog.offering(variant.offeringID) != nil
                else { continue }
                return ServedOffering(
                    offeringID: variant.offeringID, reason: .experiment(id: experiment.id, variantID: variant.id),
                    newEnrolment: ExperimentEnrolment(
                        experimentID: experiment.id, variantID: variant.id, offeringID: variant.offeringID, at: now,
                        revenueWindowDays: experiment.revenueWindowDays))
            case .rolledOut:
                guard let id = experiment.rolledOutVariantID, let variant = experiment.variant(id), catalog.offering(variant.offeringID) != nil else { continue }
                return ServedOffering(offeringID: variant.offeringID, reason: .rolledOut(experimentID: experiment.id, variantID: id))
            case .draft, .stopped:
                continue
            }
        }
        let targeted = OfferingTargeting.offering(in: catalog, for: context)
        return ServedOffering(offeringID: targeted.offeringID, reason: targeted.rule.map { .targeting(rule: $0) } ?? .default)
    }
}
