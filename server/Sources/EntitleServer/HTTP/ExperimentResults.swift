import EntitleAnalytics
import EntitleCore

/// `GET /v1/experiments/{id}`: the experiment and its results.
struct ExperimentResults: Codable, Sendable {
    var experiment: Experiment
    var results: ExperimentReport
}
