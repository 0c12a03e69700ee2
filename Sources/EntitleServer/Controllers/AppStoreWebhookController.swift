import AppStoreModels
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
        router.post("/v1/app-store/notifications") { request, context -> Response in
            var request = request
            let body = try await request.collectBody(upTo: context.maxUploadSize)
            // Apple's body as sent is read with the cursor; anything else as any request body is.
            let signedPayload: String
            if let read = Self.signedPayload(body) {
                signedPayload = read
            } else {
                signedPayload = try await request.decode(as: AppStoreNotificationRequest.self, context: context).signedPayload
            }
            do throws(ServiceError) {
                let service = apps.service(forSignedNotification: signedPayload)
                let outcome = try await service.ingestNotification(signedPayload: signedPayload)
                metrics.recordNotification(outcome: outcome == .duplicate ? "duplicate" : "appended")
            } catch {
                metrics.recordNotification(outcome: error.code.rawValue)
                throw error
            }
            return Self.acknowledgement
        }
    }

    /// `{"signedPayload": "…"}` read with ``JSONCursor``: `nil` for anything it can't read exactly as
    /// `JSONDecoder` would (another key, an escape…).
    static func signedPayload(_ body: ByteBuffer) -> String? {
        body.withUnsafeReadableBytes { raw in
            JSONCursor.read(raw.bindMemory(to: UInt8.self)) { cursor in
                var signedPayload: String?
                let read = cursor.object { cursor, key in key == "signedPayload" && JSONCursor.set(&signedPayload, cursor.string()) }
                return read ? signedPayload : nil
            }
        }
    }

    /// The answer to an ingested notification: an empty JSON object, as `[String: String]()` encodes.
    private static var acknowledgement: Response {
        Response(
            status: .ok, headers: [.contentType: "application/json; charset=utf-8", .contentLength: "2"],
            body: .init(byteBuffer: ByteBuffer(string: "{}")))
    }
}
