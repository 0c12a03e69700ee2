import EntitleCore
import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird

/// `GET /v1/exports/transactions`: every transaction after a cursor, for secret keys, as CSV or JSON
/// lines, streamed a page at a time; the next export's cursor in `Entitle-Next-Cursor` (docs/exports.md).
struct ExportsController {
    static let nextCursor = HTTPField.Name("Entitle-Next-Cursor")!

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get("transactions") { request, context -> Response in
            let service = try context.services
            let query = request.uri.queryParameters
            let format = try TransactionExportFormat(query.get("format"))
            let position = try TransactionExport.position(of: query.get("cursor"))
            let export = service.exports
            let head = try await export.head()
            var headers = HTTPFields()
            headers[.contentType] = format.contentType
            headers[.contentDisposition] = "attachment; filename=\"\(service.bundleID.rawValue)-transactions-\(position)-\(head).\(format.rawValue)\""
            headers[.cacheControl] = "no-store"
            headers[Self.nextCursor] = String(max(head, position))
            let body = ResponseBody { writer in
                try await writer.write(ByteBuffer(string: format.header))
                try await export.rows(after: position, through: head) { rows in
                    try await writer.write(ByteBuffer(string: try format.text(rows)))
                }
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: headers, body: body)
        }
    }
}
