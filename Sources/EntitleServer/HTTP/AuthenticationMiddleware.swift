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
        // The subscriber a public key is checked against: the path's, else (routes about no subscriber,
        // such as offerings) the `appUserID` query parameter's.
        let appUserID: String?
        if let raw = context.parameters.get("appUserID") {
            appUserID = try EntitleRequestContext.decodeSubscriberID(raw)
        } else if let query = request.uri.queryParameters.get("appUserID") {
            let id = String(query).precomposedStringWithCanonicalMapping
            try SubscriptionService.validate(id)
            appUserID = id
        } else {
            appUserID = nil
        }
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
