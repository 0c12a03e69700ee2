import Foundation
import HTTPTypes
import Hummingbird

/// Requires an API key: a secret key, or (when `allowSubscriberKey`) the public key of the
/// subscriber the route names in `{appUserID}`.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let keys: APIKeys
    let allowSubscriberKey: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer ") else {
            throw ServiceError(.missingAPIKey, "send an API key as Authorization: Bearer <key>")
        }
        let key = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        let appUserID = try context.parameters.get("appUserID").map { raw throws(ServiceError) in try EntitleRequestContext.decodeSubscriberID(raw) }
        guard let identity = keys.identify(key, appUserID: appUserID, app: context.isPrimaryApp ? nil : try context.service.bundleID) else {
            if key.hasPrefix("pk_") {
                throw ServiceError(.forbidden, "this public key does not belong to this subscriber")
            }
            throw ServiceError(.invalidAPIKey, "the API key is not valid")
        }
        if case .subscriber = identity, !allowSubscriberKey {
            throw ServiceError(.forbidden, "this route needs a secret key")
        }
        var context = context
        context.identity = identity
        return try await next(request, context)
    }
}
