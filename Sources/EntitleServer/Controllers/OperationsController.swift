import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `/health` and `/metrics` (Prometheus text format), for load balancers and operators; no key.
struct OperationsController {
    let service: SubscriptionService
    let metrics: ServerMetrics

    func addRoutes(to router: Router<EntitleRequestContext>) {
        router.get("/health") { _, _ -> [String: String] in ["status": "ok"] }
        router.get("/metrics") { _, context -> Response in
            // The ledger's backlogs are read when scraped; a scrape still answers when the ledger doesn't.
            do throws(ServiceError) {
                let backlog = try await service.ledgerBacklog()
                metrics.recordLedgerState(heldEvents: backlog.heldEvents, analyticsPending: backlog.analyticsPending)
            } catch {
                context.logger.warning("metrics: the ledger's backlog is unavailable", metadata: ["error.code": "\(error.code)"])
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
