import EntitleAnalytics
import EntitleCore
import EntitleWire
import Hummingbird

/// `/v1/experiments`: experiments on offerings, for secret keys — create, list, start, pause, stop,
/// roll out, and each one's results.
struct ExperimentsController {
    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get { _, context -> [Experiment] in
            try await context.services.experiments.experiments()
        }
        group.post { request, context -> EditedResponse<Experiment> in
            let body = try await request.decode(as: CreateExperimentRequest.self, context: context)
            let created = try await context.services.experiments.create(Experiment(
                id: body.id, name: body.name, variants: body.variants, audiences: body.audiences, storefronts: body.storefronts,
                revenueWindowDays: body.revenueWindowDays ?? 30, createdAt: try context.services.context.now()))
            return EditedResponse(status: .created, response: created)
        }
        group.get("{experimentID}") { _, context -> ExperimentResults in
            let (experiment, report) = try await context.services.experiments.results(try context.parameters.require("experimentID"))
            return ExperimentResults(experiment: experiment, results: report)
        }
        for (action, state) in [("start", ExperimentState.running), ("pause", .paused), ("stop", .stopped)] {
            group.post("{experimentID}/\(action)") { _, context -> Experiment in
                try await context.services.experiments.transition(try context.parameters.require("experimentID"), to: state)
            }
        }
        group.post("{experimentID}/rollout") { request, context -> Experiment in
            let body = try await request.decode(as: RollOutRequest.self, context: context)
            return try await context.services.experiments.transition(try context.parameters.require("experimentID"), to: .rolledOut, variantID: body.variantID)
        }
    }
}
