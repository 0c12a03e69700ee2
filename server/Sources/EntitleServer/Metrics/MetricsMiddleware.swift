import Foundation
import Hummingbird

/// Records every request's duration by route template, method and status.
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        do {
            let response = try await next(request, context)
            metrics.recordRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: response.status.code,
                duration: ContinuousClock.now - start)
            return response
        } catch let error as any HTTPResponseError {
            metrics.recordRequest(
                method: request.method.rawValue, route: context.endpointPath ?? "unmatched", status: error.status.code,
                duration: ContinuousClock.now - start)
            throw error
        }
    }
}
