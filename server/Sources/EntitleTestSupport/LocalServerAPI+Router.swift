import Foundation
import HTTPTypes
import Hummingbird
import LocalAppStore
import NIOCore

extension LocalServerAPI {
    /// Routes every request to the stand-in (``handle(method:path:query:authorization:body:)``), for a
    /// Hummingbird application to serve it over HTTP as Apple's host.
    public func router() -> Router<BasicRequestContext> {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/**", method: method) { request, _ in
                let body = try await request.body.collect(upTo: 1 << 20)
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                let answer = await self.handle(
                    method: request.method.rawValue, path: request.uri.path, query: query, authorization: request.headers[.authorization],
                    body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil)
                var headers = HTTPFields()
                for (name, value) in answer.headers {
                    if let field = HTTPField.Name(name) { headers[field] = value }
                }
                return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        }
        return router
    }
}
