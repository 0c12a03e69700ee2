import EntitleStorage
import HTTPTypes

/// Which scope a route needs of a secret key (docs/server.md, "Scopes"), one rule for the server and the
/// OpenAPI document (each operation's `x-entitle-scope`, checked by the tests): reads need `viewer`;
/// changes to one subscriber (under `/v1/subscribers/{appUserID}/`) need `support`; every other change —
/// keys, webhooks, experiments, open access, imports, reconciliation, a customer's deletion — `admin`.
public enum KeyScopeRule {
    public static func required(method: HTTPRequest.Method, route: String) -> StoredKey.Scope {
        if method == .get || method == .head { return .viewer }
        if route.hasPrefix("/v1/subscribers/{appUserID}/") { return .support }
        return .admin
    }

    /// Whether a key of `scope` reaches the route.
    public static func allows(_ scope: StoredKey.Scope, method: HTTPRequest.Method, route: String) -> Bool {
        switch (scope, required(method: method, route: route)) {
        case (.admin, _), (.support, .support), (.support, .viewer), (.viewer, .viewer): true
        default: false
        }
    }
}
