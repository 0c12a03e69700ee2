import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension Response {
    /// A JSON answer in the API's encoding (``WireJSON``), for a route that sets its own status or headers.
    static func json(_ value: some Encodable, status: HTTPResponse.Status = .ok) throws -> Response {
        Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: try WireJSON.encoder.encode(value))))
    }
}
