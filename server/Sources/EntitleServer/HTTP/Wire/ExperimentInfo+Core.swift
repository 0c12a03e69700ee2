import EntitleCore
import EntitleWire

extension ExperimentInfo {
    /// The experiment as the API shows it.
    init(_ experiment: Experiment) {
        self.init(
            id: experiment.id, name: experiment.name, variants: experiment.variants, audiences: experiment.audiences,
            storefronts: experiment.storefronts, revenueWindowDays: experiment.revenueWindowDays, state: experiment.state,
            rolledOutVariantID: experiment.rolledOutVariantID, createdAt: experiment.createdAt, startedAt: experiment.startedAt,
            endedAt: experiment.endedAt)
    }
}
