import Hummingbird

/// Sets the request context's body limit.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let limit: Int

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.bodyLimit = limit
        return try await next(request, context)
    }
}
