import EntitleWire
import Hummingbird

/// `POST /v1/imports/customers`: an app moving in imports its existing customers from Apple, a batch at a
/// time (`entitle import` sends its file's rows), for secret keys (docs/import.md).
struct ImportsController {
    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.post("customers") { request, context -> ImportCustomersResponse in
            let body = try await request.decode(as: ImportCustomersRequest.self, context: context)
            return ImportCustomersResponse(results: try await context.services.appStore.importCustomers(body.customers))
        }
    }
}

extension ImportCustomersResponse: @retroactive ResponseEncodable {}
