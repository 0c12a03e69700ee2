import EntitleStorage
import EntitleWire
import Hummingbird

/// `POST /v1/app-store/notifications`: App Store Server Notifications V2. Apple's signature
/// authenticates them, so no key; 200 only once the event is durably stored. One URL for every app:
/// a notification goes to the app its payload names, whose verifiers check it.
struct AppStoreWebhookController {
    let apps: ServedApps
    let metrics: ServerMetrics

    func addRoutes(to router: Router<EntitleRequestContext>) {
        router.post("/v1/app-store/notifications") { request, context -> [String: String] in
            let body = try await request.decode(as: AppStoreNotificationRequest.self, context: context)
            do throws(ServiceError) {
                let service = apps.service(forSignedNotification: body.signedPayload)
                let outcome = try await service.ingestNotification(signedPayload: body.signedPayload)
                metrics.recordNotification(outcome: outcome == .duplicate ? "duplicate" : "appended")
            } catch {
                metrics.recordNotification(outcome: error.code.rawValue)
                throw error
            }
            return [:]
        }
    }
}
