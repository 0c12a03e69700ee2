import EntitleCore
import EntitleWire
import Foundation
import Hummingbird

/// The app's webhooks, with a secret key: endpoints (added, listed, removed, secrets rotated, tested),
/// deliveries with their attempts, replays, and the status.
struct WebhooksController {
    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get("endpoints") { _, context -> [WebhookEndpointInfo] in
            try await context.services.webhooks.webhookEndpoints().map { WebhookInfo.info($0) }
        }
        group.post("endpoints") { request, context -> EditedResponse<WebhookEndpointSecret> in
            let body = try await request.decode(as: CreateWebhookEndpointRequest.self, context: context)
            let (endpoint, secret) = try await context.services.webhooks.addWebhookEndpoint(
                url: body.url, eventTypes: body.eventTypes ?? [], description: body.description, secret: body.secret)
            return EditedResponse(status: .created, response: WebhookEndpointSecret(endpoint: WebhookInfo.info(endpoint), secret: secret))
        }
        group.get("endpoints/{endpointID}") { _, context -> WebhookEndpointInfo in
            WebhookInfo.info(try await context.services.webhooks.webhookEndpoint(id: context.parameters.require("endpointID")))
        }
        group.delete("endpoints/{endpointID}") { _, context -> WebhookEndpointInfo in
            WebhookInfo.info(try await context.services.webhooks.removeWebhookEndpoint(id: context.parameters.require("endpointID")))
        }
        group.post("endpoints/{endpointID}/secrets") { request, context -> WebhookEndpointSecret in
            let body = try await request.decodeIfPresent(as: RotateWebhookSecretRequest.self, context: context)
            let (endpoint, secret) = try await context.services.webhooks.rotateWebhookSecret(id: context.parameters.require("endpointID"), secret: body?.secret)
            return WebhookEndpointSecret(endpoint: WebhookInfo.info(endpoint), secret: secret)
        }
        group.post("endpoints/{endpointID}/test") { _, context -> EditedResponse<WebhookDeliveryInfo> in
            let delivery = try await context.services.webhooks.sendTestWebhook(endpointID: context.parameters.require("endpointID"))
            return EditedResponse(status: .accepted, response: WebhookInfo.info(delivery))
        }
        group.post("endpoints/{endpointID}/replay") { request, context -> WebhookReplayResponse in
            let body = try await request.decodeIfPresent(as: WebhookReplayRequest.self, context: context)
            return WebhookReplayResponse(
                replayed: try await context.services.webhooks.replayWebhooks(endpointID: context.parameters.require("endpointID"), deliveryIDs: body?.deliveryIDs))
        }
        group.get("deliveries") { request, context -> [WebhookDeliveryInfo] in
            let query = request.uri.queryParameters
            let limit = try query.get("limit").map { value in
                guard let limit = Int(value) else { throw ServiceError(.invalidRequest, "limit is 1 to 500") }
                return limit
            } ?? 100
            return try await context.services.webhooks.webhookDeliveries(
                endpointID: query.get("endpointID").map { String($0) }, appUserID: query.get("appUserID").map { AppUserID(String($0)) },
                status: query.get("status").map { String($0) }, limit: limit
            ).map { WebhookInfo.info($0) }
        }
        group.get("deliveries/{deliveryID}") { _, context -> WebhookDeliveryInfo in
            guard let id = Int64(try context.parameters.require("deliveryID")) else {
                throw ServiceError(.notFound, "a delivery ID is a number")
            }
            let (delivery, attempts) = try await context.services.webhooks.webhookDelivery(id: id)
            return WebhookInfo.info(delivery, attempts: attempts)
        }
        group.get("status") { _, context -> WebhookStatusResponse in
            WebhookInfo.status(try await context.services.webhooks.webhookStatus())
        }
    }

}

extension WebhookEndpointInfo: @retroactive ResponseEncodable {}
extension WebhookEndpointSecret: @retroactive ResponseEncodable {}
extension WebhookDeliveryInfo: @retroactive ResponseEncodable {}
extension WebhookReplayResponse: @retroactive ResponseEncodable {}
extension WebhookStatusResponse: @retroactive ResponseEncodable {}
