import EntitleCore
import Foundation
import HTTPTypes
import Hummingbird

/// Records every change an operator makes (docs/operations.md, "Audit log"): each request that isn't a
/// read (GET, HEAD), from a secret key, that succeeds (2xx) — who, the route, its subject, the body it was
/// sent with (secrets redacted), the status, the request's ID. After the authentication middleware.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let actor = context.actor, let services = context.app else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: context.bodyLimit)
        let response = try await next(request, context)
        guard (200..<300).contains(response.status.code) else { return response }
        let parameters = ["appUserID", "memberID", "grantID", "overrideID", "endpointID", "experimentID", "keyID", "jobID", "originalTransactionID"]
        let action = "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)"
        // A customer's deletion names no one: they are erased, from this log too (docs/deletion.md).
        let erasing = action == "DELETE /v1/subscribers/{appUserID}"
        // A subscriber as the ledger names them (the path's percent-encoding undone), anything else as given.
        let subject = erasing ? nil : parameters.lazy.compactMap { name in
            context.parameters.get(name).map { raw in
                ["appUserID", "memberID"].contains(name) ? ((try? EntitleRequestContext.decodeSubscriberID(raw))?.rawValue ?? String(raw)) : String(raw)
            }
        }.first
        await services.audit.record(
            actor: actor, action: action, subject: subject,
            body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil, status: response.status.code, requestID: RequestLog.requestID)
        return response
    }
}

extension RouterGroup where Context == EntitleRequestContext {
    /// The group behind `authentication`, its changes recorded in the audit log: ``AuditMiddleware`` reads
    /// the actor the authentication sets, so every authenticated group is audited alike.
    func authenticated(by authentication: AuthenticationMiddleware) -> RouterGroup<Context> {
        add(middleware: authentication).add(middleware: AuditMiddleware())
    }
}
