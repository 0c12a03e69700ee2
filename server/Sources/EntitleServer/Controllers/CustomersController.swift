import EntitleCore
import EntitleWire
import Foundation
import Hummingbird

/// `GET /v1/subscribers`: the customer list for secret keys, filtered and paged by a cursor, as JSON or
/// (`format=csv`) every matching customer as CSV, streamed page by page.
struct CustomersController {
    /// The query parameters that filter (``SubscriberFilter/init(fields:catalog:)``).
    static let filterFields = ["state", "product", "storefront", "entitlement", "firstSeenFrom", "firstSeenBefore", "trial", "grace", "refunded", "flagged"]

    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get { request, context -> Response in
            let service = try context.services
            let query = request.uri.queryParameters
            let filter = try SubscriberFilter(
                fields: Dictionary(uniqueKeysWithValues: Self.filterFields.map { ($0, query.get($0)) }), catalog: service.catalog)
            switch query.get("format") {
            case nil, "json":
                let limit = try query.get("limit").map { (text: String) throws(ServiceError) -> Int in
                    guard let limit = Int(text) else { throw ServiceError(.invalidRequest, "limit is a whole number from 1 to \(CustomerListService.largestPage)") }
                    return limit
                } ?? CustomerListService.defaultPage
                let page = try await service.customers.page(filter, after: query.get("cursor"), limit: limit)
                return try page.response(from: request, context: context)
            case "csv":
                return Self.csv(filter, customers: service.customers, filename: "\(service.bundleID.rawValue)-customers.csv")
            case let other?:
                throw ServiceError(.invalidRequest, "format is json or csv, not \(other)")
            }
        }
    }

    /// Every customer `filter` admits as CSV: the header, then each page's rows as it is read, so memory
    /// holds one page whatever the number of customers.
    static func csv(_ filter: SubscriberFilter, customers: CustomerListService, filename: String) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/csv; charset=utf-8"
        headers[.contentDisposition] = "attachment; filename=\"\(filename)\""
        let body = ResponseBody { writer in
            try await writer.write(ByteBuffer(string: CustomerCSV.header))
            var cursor: String?
            repeat {
                let page = try await customers.page(filter, after: cursor, limit: CustomerListService.largestPage)
                if !page.subscribers.isEmpty {
                    try await writer.write(ByteBuffer(string: page.subscribers.map(CustomerCSV.row).joined()))
                }
                cursor = page.nextCursor
            } while cursor != nil
            try await writer.finish(nil)
        }
        return Response(status: .ok, headers: headers, body: body)
    }
}

extension SubscriberListResponse: @retroactive ResponseEncodable {}
