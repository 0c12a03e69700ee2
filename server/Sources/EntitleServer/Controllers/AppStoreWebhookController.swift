import AppStoreModels
import EntitleWire
import FastJSON
import Hummingbird

/// `POST /v1/app-store/notifications`: App Store Server Notifications V2. Apple's signature
/// authenticates them, so no key; 200 only once the event is durably stored. One URL for every app:
/// a notification goes to the app its payload names, whose verifiers check it. And Apple's real-time
/// Get Retention Message requests (`POST /v1/app-store/retention-messages`), authenticated the same way.
struct AppStoreWebhookController {
    let apps: ServedApps
    let metrics: ServerMetrics

    func addRoutes(to router: Router<EntitleRequestContext>) {
        router.post("/v1/app-store/notifications") { request, context -> Response in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            // Apple's body as sent is read with the cursor; anything else as any request body is.
            let signedPayload: String
            if let read = body.withUnsafeReadableBytes({ AppStoreNotificationBody.signedPayload($0) }) {
                signedPayload = read
            } else {
                signedPayload = try await request.decode(as: AppStoreNotificationRequest.self, context: context).signedPayload
            }
            do throws(ServiceError) {
                let service = apps.service(forSignedNotification: signedPayload)
                let outcome = try await service.ingestion.ingestNotification(signedPayload: signedPayload)
                metrics.recordNotification(outcome: outcome.label)
            } catch {
                metrics.recordNotification(outcome: error.code.rawValue)
                throw error
            }
            return Self.acknowledgement
        }
        // Apple's Get Retention Message: asked in real time, answered from the catalog's rules. Apple's
        // signature authenticates it; any failure leaves Apple to show the app's default message.
        router.post("/v1/app-store/retention-messages") { request, context -> RealtimeResponseBody in
            let body = try await request.decode(as: RealtimeRequestBody.self, context: context)
            return try await apps.service(forRealtimeRequest: body.signedPayload).retention.answer(signedPayload: body.signedPayload).body
        }
    }

    /// The answer to an ingested notification: an empty JSON object, as `[String: String]()` encodes.
    private static var acknowledgement: Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .contentLength: "2"],
            body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }
}
