import Hummingbird

/// Makes the server's customer-info signer available to every route that answers about a subscriber.
struct SigningMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let signer: CustomerInfoSigner

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.signer = signer
        return try await next(request, context)
    }
}
