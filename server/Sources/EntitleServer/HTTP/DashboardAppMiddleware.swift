import EntitleCore
import Foundation
import Hummingbird

/// The app a dashboard page shows: the one its cookie remembers (set by the switcher), else the primary;
/// or every app together (analytics only; subscribers are searched per app).
struct DashboardAppMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let apps: ServedApps

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let cookie = request.headers[values: .cookie].flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix(DashboardController.appCookie + "=") }
            .map { String($0.dropFirst(DashboardController.appCookie.count + 1)) }
        let service = cookie.flatMap { apps.service(bundleID: BundleID($0)) } ?? apps.primary
        context.allApps = cookie == DashboardController.allApps && apps.services.count > 1
        context.app = service
        context.isPrimaryApp = service === apps.primary
        return try await next(request, context)
    }
}
