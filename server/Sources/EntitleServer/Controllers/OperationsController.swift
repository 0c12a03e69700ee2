import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// `/health`, `/ready` and `/metrics` (Prometheus text format), for load balancers and operators; no
/// key. `/health` says the process answers HTTP and asks nothing else (a liveness probe); `/ready`
/// says it can serve: the ledger answered a read just now (a readiness probe, a load balancer's
/// check); a storage failure is its usual error, 503 with `Retry-After` while a retry may succeed.
struct OperationsController {
    let apps: ServedApps
    let metrics: ServerMetrics
    let signer: CustomerInfoSigner?

    func addRoutes(to router: Router<EntitleRequestContext>) {
        router.get("/health") { _, _ -> [String: String] in ["status": "ok"] }
        // Every app's store is the same database: one read answers for all of them.
        router.get("/ready") { _, _ -> [String: String] in
            try await apps.primary.analytics.checkLedger()
            return ["status": "ready"]
        }
        // The public key subscriber answers are signed with, for apps to pin (no key needed).
        router.get("/v1/signing-key") { _, _ -> [String: String] in
            guard let signer else { throw ServiceError(.notFound, "this server does not sign subscriber answers") }
            return ["algorithm": "ed25519", "publicKey": signer.publicKey]
        }
        router.get("/metrics") { _, context -> Response in
            // The ledger's backlogs (of every app) and the process's memory are read when scraped; a
            // scrape still answers when the ledger doesn't.
            do throws(ServiceError) {
                var (held, pending, recomputing) = (0, 0, 0)
                for service in apps.services {
                    let backlog = try await service.analytics.ledgerBacklog()
                    held += backlog.heldEvents
                    pending += backlog.analyticsPending
                    recomputing += backlog.recomputing ? 1 : 0
                }
                metrics.recordLedgerState(heldEvents: held, analyticsPending: pending, recomputingApps: recomputing)
            } catch {
                context.logger.warning("metrics: the ledger's backlog is unavailable", metadata: ["error.code": "\(error.code)"])
            }
            if let memory = ProcessMemory.now() { metrics.recordProcessMemory(memory) }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
