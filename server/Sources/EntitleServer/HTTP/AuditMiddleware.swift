import EntitleCore
import Foundation
import HTTPTypes
import EntitleWire
import Hummingbird

/// Records every change an operator makes (docs/operations.md, "Audit log"): each request that isn't a
/// read (GET, HEAD), from a secret key, that succeeds (2xx) — who, the route, its subject, the body it was
/// sent with (secrets redacted), the status, the request's ID, and what the change found and left (a
/// subscriber's entitlements, or what the route notes in ``AuditChange``). After the authentication middleware.
struct AuditMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.method != .get, request.method != .head, let actor = context.actor, let services = context.app else {
            return try await next(request, context)
        }
        var request = request
        let body = try await request.collectBody(upTo: context.bodyLimit)
        let parameters = ["appUserID", "memberID", "grantID", "overrideID", "endpointID", "experimentID", "keyID", "jobID", "originalTransactionID", "accountID"]
        let action = "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)"
        // A customer's deletion names no one: they are erased, from this log too (docs/deletion.md).
        let erasing = action == "DELETE /v1/subscribers/{appUserID}"
        // A subscriber as the ledger names them (the path's percent-encoding undone), anything else as given.
        let subscriber = erasing ? nil : context.parameters.get("appUserID").flatMap { try? EntitleRequestContext.decodeSubscriberID($0) }
        let subject = erasing ? nil : parameters.lazy.compactMap { name in
            context.parameters.get(name).map { raw in
                ["appUserID", "memberID"].contains(name) ? ((try? EntitleRequestContext.decodeSubscriberID(raw))?.rawValue ?? String(raw)) : String(raw)
            }
        }.first
        // A change to one subscriber: their entitlements before and after.
        var before: String?
        if let subscriber { before = await Self.entitlements(of: subscriber, services) }
        let change = AuditChange()
        let response = try await AuditChange.$current.withValue(change) { try await next(request, context) }
        guard (200..<300).contains(response.status.code) || response.status == .seeOther else { return response }
        var noted = change.value
        if noted == nil, let subscriber { noted = (before, await Self.entitlements(of: subscriber, services)) }
        await services.audit.record(
            actor: actor, action: action, subject: subject,
            body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil, status: response.status.code, requestID: RequestLog.requestID,
            before: noted?.before, after: noted?.after)
        return response
    }

    /// A subscriber's entitlements as the audit log keeps them: JSON, one object per entitlement (its
    /// state, source, product and expiry), sorted; `nil` for a subscriber the ledger doesn't know (asking
    /// about an unknown one would register them) or when they can't be read.
    static func entitlements(of subscriber: AppUserID, _ services: AppServices) async -> String? {
        guard (try? await services.subscribers.isKnown(appUserID: subscriber)) == true,
            let answer = try? await services.subscribers.subscriber(appUserID: subscriber)
        else { return nil }
        let rows = SubscriberResponseBuilder.response(answer).entitlements.sorted { $0.id < $1.id }.map { entitlement in
            AuditedEntitlement(
                id: entitlement.id, state: entitlement.state.rawValue, source: entitlement.source.rawValue, productID: entitlement.productID,
                expiresAt: entitlement.expiresAt)
        }
        guard let data = try? WireJSON.encoder.encode(rows) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }

    struct AuditedEntitlement: Encodable {
        var id: String
        var state: String
        var source: String
        var productID: String?
        var expiresAt: Date?
    }
}

extension RouterGroup where Context == EntitleRequestContext {
    /// The group behind `authentication`, its changes recorded in the audit log: ``AuditMiddleware`` reads
    /// the actor the authentication sets, so every authenticated group is audited alike.
    func authenticated(by authentication: AuthenticationMiddleware) -> RouterGroup<Context> {
        add(middleware: authentication).add(middleware: AuditMiddleware())
    }
}
