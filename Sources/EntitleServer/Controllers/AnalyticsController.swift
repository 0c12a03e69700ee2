import EntitleAnalytics
import Hummingbird

/// `/v1/analytics`: the overview report and its CSV exports, for secret keys.
struct AnalyticsController {
    let service: SubscriptionService

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get("overview") { request, _ -> AnalyticsReport in
            try await service.analytics(from: DashboardController.query(request, "from"), to: DashboardController.query(request, "to"))
        }
        group.get("export/{chart}") { request, context -> Response in
            try await DashboardController.csv(context.parameters.require("chart"), service: service, request: request)
        }
    }
}
