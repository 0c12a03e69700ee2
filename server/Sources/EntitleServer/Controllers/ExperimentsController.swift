import EntitleAnalytics
import EntitleCore
import EntitleWire
import Hummingbird

/// `/v1/experiments`: experiments on offerings, for secret keys — create, list, start, pause, stop,
/// roll out, and each one's results.
struct ExperimentsController {
    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get { _, context -> [ExperimentInfo] in
            try await context.services.experiments.experiments().map(ExperimentInfo.init)
        }
        group.post { request, context -> EditedResponse<ExperimentInfo> in
            let body = try await request.decode(as: CreateExperimentRequest.self, context: context)
            let created = try await context.services.experiments.create(Experiment(
                id: body.id, name: body.name, variants: body.variants, audiences: body.audiences, storefronts: body.storefronts,
                revenueWindowDays: body.revenueWindowDays ?? 30, createdAt: try context.services.context.now()))
            return EditedResponse(status: .created, response: ExperimentInfo(created))
        }
        group.get("{experimentID}") { _, context -> ExperimentResultsResponse in
            let (experiment, report) = try await context.services.experiments.results(try context.parameters.require("experimentID"))
            return ExperimentResultsResponse(experiment: ExperimentInfo(experiment), results: report)
        }
        for (action, state) in [("start", ExperimentState.running), ("pause", .paused), ("stop", .stopped)] {
            group.post("{experimentID}/\(action)") { _, context -> ExperimentInfo in
                ExperimentInfo(try await context.services.experiments.transition(try context.parameters.require("experimentID"), to: state))
            }
        }
        group.post("{experimentID}/rollout") { request, context -> ExperimentInfo in
            let body = try await request.decode(as: RollOutRequest.self, context: context)
            return ExperimentInfo(
                try await context.services.experiments.transition(try context.parameters.require("experimentID"), to: .rolledOut, variantID: body.variantID))
        }
    }
}
