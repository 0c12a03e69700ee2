import Hummingbird

/// Runs the rest of the chain on Swift concurrency's global executor rather than the connection's
/// event loop (``EventLoopChildChannel``): for routes whose work runs long without suspending (the
/// analytics refresh before a report, the dashboard's pages), which would hold up the loop's other
/// connections. Where requests aren't handled on event loops it changes nothing.
struct OffEventLoopMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await withTaskExecutorPreference(globalConcurrentExecutor) {
            try await next(request, context)
        }
    }
}
