/// `GET /v1/experiments/{id}`: the experiment and its results.
public struct ExperimentResultsResponse: Codable, Hashable, Sendable {
    public var experiment: ExperimentInfo
    public var results: ExperimentReport

    public init(experiment: ExperimentInfo, results: ExperimentReport) {
        self.experiment = experiment
        self.results = results
    }
}
