import HTTPTypes
import Hummingbird

/// Refuses a state-changing dashboard request (anything but GET and HEAD) sent from another origin: a
/// browser says where a request comes from in `Sec-Fetch-Site` (and, in browsers without it, `Origin`),
/// which a page can't forge, so a form on another site can't act with the operator's cookie. SameSite=Strict stays as a
/// second defence. A request with neither header (curl, a script) carries no browser's cookie to abuse.
struct SameOriginMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    static let secFetchSite = HTTPField.Name.secFetchSite
    static let forwardedHost = HTTPField.Name.xForwardedHost

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head else { return try await next(request, context) }
        if let site = request.headers[Self.secFetchSite] {
            // The browser's own word (a page can't set it), and it holds when `Origin` is `null`.
            guard site == "same-origin" || site == "none" else {
                throw ServiceError(.forbidden, "the dashboard takes changes from its own pages only (Sec-Fetch-Site: \(site.prefix(20)))")
            }
            return try await next(request, context)
        }
        // A browser without Sec-Fetch-Site: its `Origin`.
        if let origin = request.headers[.origin] {
            let hosts = [request.headers[Self.forwardedHost], request.head.authority].compactMap { $0 }
            guard let authority = Self.authority(ofOrigin: origin), hosts.contains(where: { $0.lowercased() == authority }) else {
                throw ServiceError(.forbidden, "the dashboard takes changes from its own pages only, not from another origin")
            }
        }
        return try await next(request, context)
    }

    /// `host[:port]` of an `Origin` value (`scheme://host[:port]`), lowercased; `nil` for `null` or anything else.
    static func authority(ofOrigin origin: String) -> String? {
        let lowered = origin.lowercased()
        for scheme in ["http://", "https://"] where lowered.hasPrefix(scheme) {
            let authority = lowered.dropFirst(scheme.count)
            guard !authority.isEmpty, !authority.contains("/") else { return nil }
            return String(authority)
        }
        return nil
    }
}
