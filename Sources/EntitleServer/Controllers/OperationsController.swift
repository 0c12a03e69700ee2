import HTTPTypes
import Hummingbird
import NIOCore

/// `/health` and `/metrics` (Prometheus text format), for load balancers and operators; no key.
struct OperationsController {
    let metrics: ServerMetrics

    func addRoutes(to router: Router<EntitleRequestContext>) {
        router.get("/health") { _, _ -> [String: String] in ["status": "ok"] }
        router.get("/metrics") { _, _ -> Response in
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: metrics.render())))
        }
    }
}
