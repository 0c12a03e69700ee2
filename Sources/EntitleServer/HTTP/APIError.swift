import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird

/// A ``ServiceError`` as an HTTP response: its status and `{"error": {"code", "message"}}`.
struct APIError: HTTPResponseError {
    let error: ServiceError

    var status: HTTPResponse.Status { HTTPResponse.Status(code: error.status) }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let body = try encoder.encode(ErrorResponse(code: error.code, message: error.message))
        var headers = HTTPFields()
        headers[.contentType] = "application/json; charset=utf-8"
        if error.isRetryable { headers[.retryAfter] = "5" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }
}
