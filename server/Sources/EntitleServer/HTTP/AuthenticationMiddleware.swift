import EntitleCore
import EntitleStorage
import Foundation
import HTTPTypes
import Hummingbird

/// Requires an API key, and settles the app the request is for:
/// - a server-wide secret key (`--secret-key`): any app, the one selected by `Entitle-App`;
/// - a stored secret key: its own app, every keyed route;
/// - a stored app key: its own app, only where `allowAppKey` (subscribers and offerings);
/// - (when `allowSubscriberKey`) the public key of the subscriber the route names in `{appUserID}`
///   (or, on routes about no subscriber, in the `appUserID` query parameter).
/// A stored key names its app; an `Entitle-App` header naming another is refused.
struct AuthenticationMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let keys: APIKeys
    let stored: StoredKeys
    let apps: ServedApps
    let allowSubscriberKey: Bool
    var allowAppKey: Bool = false

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let key = request.headers[.authorization].flatMap(Self.bearerKey) else {
            throw ServiceError(.missingAPIKey, "send an API key as Authorization: Bearer <key>")
        }
        var context = context
        if let named = context.appHeader, context.app == nil {
            throw ServiceError(.unknownApp, "\(named) is not an app this server serves")
        }
        if key.hasPrefix("ak_") || (key.hasPrefix("sk_") && !keys.isServerSecret(key)) {
            let found: StoredKey?
            do {
                found = try await stored.identify(key)
            } catch {
                throw ServiceError(error)
            }
            if let found {
                guard let service = apps.service(bundleID: found.app) else {
                    throw ServiceError(.invalidAPIKey, "the API key belongs to an app this server does not serve")
                }
                if let selected = context.app, selected !== service {
                    throw ServiceError(.keyOfAnotherApp, "this key belongs to \(found.app), not to \(selected.bundleID), which the Entitle-App header names")
                }
                if found.kind == .app, !allowAppKey {
                    throw ServiceError(.forbidden, "an app key reaches subscribers and offerings only; this route needs a secret key")
                }
                if found.kind == .app, !service.catalog.acceptsAppKeys {
                    throw ServiceError(.forbidden, "\(found.app) takes per-subscriber keys from its backend, not app keys")
                }
                context.app = service
                context.isPrimaryApp = service === apps.primary
                context.identity = found.kind == .app ? .appKey(app: found.app) : .appSecret(app: found.app)
                if found.kind != .app {
                    context.actor = "key:\(found.id)" + (found.name.map { " (\($0))" } ?? "")
                    let route = context.endpointPath ?? request.uri.path
                    guard KeyScopeRule.allows(found.scope, method: request.method, route: route) else {
                        throw ServiceError(
                            .forbidden,
                            "this key's scope (\(found.scope.rawValue)) doesn't reach \(request.method.rawValue) \(route): it needs \(KeyScopeRule.required(method: request.method, route: route).rawValue)")
                    }
                }
                if found.kind == .app, service.catalog.logInTokens?.requiredForAppKeys == true {
                    try await Self.requireAnonymous(try Self.namedSubscriber(request, context), service: service)
                }
                return try await next(request, context)
            }
            throw ServiceError(.invalidAPIKey, "the API key is not valid")
        }
        guard context.app != nil else { throw try Self.unnamedApp(apps) }
        // The subscriber a public key is checked against: the path's, else (routes about no subscriber,
        // such as offerings) the `appUserID` query parameter's.
        let appUserID = try Self.namedSubscriber(request, context)
        guard let identity = keys.identify(key, appUserID: appUserID, app: context.isPrimaryApp ? nil : try context.services.bundleID) else {
            if key.hasPrefix("pk_") {
                throw ServiceError(.forbidden, "this public key does not belong to this subscriber")
            }
            throw ServiceError(.invalidAPIKey, "the API key is not valid")
        }
        if case .subscriber = identity, !allowSubscriberKey {
            throw ServiceError(.forbidden, "this route needs a secret key")
        }
        context.identity = identity
        if case .secret = identity { context.actor = "secret:" + AuthenticationFingerprint.of(key) }
        return try await next(request, context)
    }

    /// The key of an `Authorization: Bearer <key>` value, without the spaces and tabs around it (an HTTP
    /// field's whitespace); `nil` for any other scheme. Byte-wise: Foundation's Unicode trim cost every
    /// request ~1% of a subscriber read's CPU time.
    static func bearerKey(_ header: String) -> String? {
        guard header.hasPrefix("Bearer ") else { return nil }
        let value = header.utf8.dropFirst("Bearer ".count)
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = value.firstIndex(where: { !isSpace($0) }), let last = value.lastIndex(where: { !isSpace($0) }) else {
            return ""
        }
        return String(decoding: value[first...last], as: UTF8.self)
    }

    /// The subscriber a request names: the path's `{appUserID}`, else (routes about no subscriber, such
    /// as offerings) the `appUserID` query parameter's.
    private static func namedSubscriber(_ request: Request, _ context: Context) throws(ServiceError) -> AppUserID? {
        if let raw = context.parameters.get("appUserID") {
            return try EntitleRequestContext.decodeSubscriberID(raw)
        } else if let query = request.uri.queryParameters.get("appUserID") {
            return try EntitleRequestContext.normalizeSubscriberID(String(query))
        }
        return nil
    }

    /// An app key of an app whose entitlements file sets `logInTokens.requiredForAppKeys` reaches
    /// anonymous subscribers only, and not one that logged in (its ID now reaches the known user):
    /// a known user's requests carry the public key a log-in with a token returned.
    private static func requireAnonymous(_ appUserID: AppUserID?, service: AppServices) async throws(ServiceError) {
        guard let appUserID else { return }
        let message = "this app's key reaches anonymous users only; a known user's requests use the key their log-in with a token returned"
        guard appUserID.isAnonymous else { throw ServiceError(.logInTokenRequired, message) }
        guard try await service.subscribers.canonical(appUserID) == appUserID else { throw ServiceError(.logInTokenRequired, message) }
    }

    private static func unnamedApp(_ apps: ServedApps) throws -> ServiceError {
        do {
            _ = try apps.service(named: nil)
            return ServiceError(.internalError, "no app selected")
        } catch {
            return error
        }
    }
}
