import EntitleServer
import Foundation
import HTTPTypes
import Hummingbird
import LocalAppStore

/// The local App Store Server API over HTTP, beside the server in `entitle demo`: Apple's paths under
/// ``prefix``, each request answered by the stand-in of the app its token names (`bid`), which checks
/// the token as Apple does. The demo's reconciliation reads it; `entitle serve --app-store-api-url`
/// can be pointed at it to rehearse.
struct LocalServerAPIController {
    static let prefix = "/local-app-store-api"
    /// By bundle ID.
    let apis: [String: LocalServerAPI]

    func addRoutes(to router: Router<EntitleRequestContext>) {
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("\(Self.prefix)/**", method: method) { request, _ -> Response in
                let authorization = request.headers[.authorization]
                guard let api = LocalServerAPI.bundleID(ofToken: authorization).flatMap({ apis[$0] }) else {
                    return Response(status: .unauthorized)
                }
                let body = try await request.body.collect(upTo: 1 << 20)
                var query: [String: String] = [:]
                for (name, value) in request.uri.queryParameters { query[String(name)] = String(value) }
                let answer = await api.handle(
                    method: request.method.rawValue, path: String(request.uri.path.dropFirst(Self.prefix.count)), query: query,
                    authorization: authorization, body: body.readableBytes > 0 ? Data(body.readableBytesView) : nil)
                var headers = HTTPFields()
                for (name, value) in answer.headers {
                    if let field = HTTPField.Name(name) { headers[field] = value }
                }
                return Response(status: .init(code: answer.status), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: answer.body)))
            }
        }
    }
}
