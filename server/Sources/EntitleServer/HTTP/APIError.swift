import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird

/// A ``ServiceError`` as an HTTP response: the status ``HTTPStatusTable`` gives its code, and
/// `{"error": {"code", "message"}}`; `Retry-After` when a retry may succeed.
struct APIError: HTTPResponseError {
    let error: ServiceError
    /// The `Allow` header of a 405.
    var allow: String? = nil

    var status: HTTPResponse.Status { HTTPStatusTable.status(for: error.code) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let body = try WireJSON.encoder.encode(ErrorResponse(code: error.code.rawValue, message: error.message))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if error.isRetryable { headers[.retryAfter] = "5" }
        if let allow { headers[.allow] = allow }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
