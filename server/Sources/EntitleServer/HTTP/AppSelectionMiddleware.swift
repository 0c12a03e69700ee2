import Foundation
import Hummingbird

/// Selects the app a request is for: the one the `Entitle-App` header names, or the only one the
/// server serves. Runs before authentication, which checks the key against that app; a stored key
/// decides the app itself, so with several apps and no header the choice is left to it.
struct AppSelectionMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let apps: ServedApps

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let header = request.headers[ServedApps.header]
        context.appHeader = header
        // An unknown app is reported by authentication, after the key: a request without a key is 401 first.
        if header != nil || apps.services.count == 1, let service = try? apps.service(named: header) {
            context.app = service
            context.isPrimaryApp = service === apps.primary
        }
        return try await next(request, context)
    }
}
