import EntitleAnalytics
import EntitleWire
import Hummingbird

/// `/v1/analytics`: the overview report, the paywall funnels and the CSV exports, for secret keys.
struct AnalyticsController {

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        // A parameter given empty is a bad date, not an absent one.
        group.get("overview") { request, context -> AnalyticsReport in
            let query = request.uri.queryParameters
            return try await context.services.analytics.analytics(from: query.get("from"), to: query.get("to"), environment: query.get("environment"))
        }
        group.get("funnels") { request, context -> FunnelReport in
            let query = request.uri.queryParameters
            return try await context.services.analytics.funnels(from: query.get("from"), to: query.get("to"), environment: query.get("environment"))
        }
        group.get("export/{chart}") { request, context -> Response in
            try await DashboardController.csv(
                context.parameters.require("chart"), service: try context.services, from: request.uri.queryParameters.get("from"),
                to: request.uri.queryParameters.get("to"), environment: request.uri.queryParameters.get("environment"))
        }
    }
}
