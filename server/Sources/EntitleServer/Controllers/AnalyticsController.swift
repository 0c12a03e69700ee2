import EntitleAnalytics
import EntitleWire
import Hummingbird

/// `/v1/analytics`: the overview report, the paywall funnels and the CSV exports, for secret keys.
struct AnalyticsController {

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        // A parameter given empty is a bad date, not an absent one.
        group.get("overview") { request, context -> AnalyticsReport in
            try await context.services.analytics.analytics(from: request.uri.queryParameters.get("from"), to: request.uri.queryParameters.get("to"))
        }
        group.get("funnels") { request, context -> FunnelReport in
            try await context.services.analytics.funnels(from: request.uri.queryParameters.get("from"), to: request.uri.queryParameters.get("to"))
        }
        group.get("export/{chart}") { request, context -> Response in
            try await DashboardController.csv(
                context.parameters.require("chart"), service: try context.services, from: request.uri.queryParameters.get("from"),
                to: request.uri.queryParameters.get("to"))
        }
    }
}
