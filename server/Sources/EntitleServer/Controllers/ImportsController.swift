import EntitleWire
import Hummingbird

/// `/v1/imports`, for secret keys (docs/import.md): an app moving in imports its existing customers from
/// Apple — a whole file as a job the server carries on in the background (`POST /v1/imports/jobs`, then
/// `GET /v1/imports/jobs/{jobID}` until it completes), or a batch at a time, answered at once
/// (`POST /v1/imports/customers`).
struct ImportsController {
    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.post("jobs") { request, context -> EditedResponse<ImportJobResponse> in
            let body = try await request.decode(as: ImportJobRequest.self, context: context)
            let started = try await context.services.appStore.startImport(body)
            return EditedResponse(status: started.created ? .accepted : .ok, response: started.job)
        }
        group.get("jobs/{jobID}") { _, context -> ImportJobResponse in
            try await context.services.appStore.importJob(id: context.parameters.require("jobID"))
        }
        group.post("customers") { request, context -> ImportCustomersResponse in
            let body = try await request.decode(as: ImportCustomersRequest.self, context: context)
            return ImportCustomersResponse(results: try await context.services.appStore.importCustomers(body.customers))
        }
    }
}

extension ImportCustomersResponse: @retroactive ResponseEncodable {}
extension ImportJobResponse: @retroactive ResponseEncodable {}
