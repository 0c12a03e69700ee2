import AsyncHTTPClient
import EntitleCore
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOConcurrencyHelpers

/// Delivers notifications like the App Store: `POST {"signedPayload": "…"}` to the server's
/// notification URL, retried with back-off until a 2xx; optionally shuffled and duplicated.
public final class NotificationDelivery: Sendable {
    private let url: String
    private let client: HTTPClient
    private let options: DeliveryOptions
    private let generator: NIOLockedValueBox<SeededGenerator>
    private let logger: Logger
    /// The store's App Store Server API, whose Notification History records every notification sent.
    private let history: LocalServerAPI?

    public init(url: String, client: HTTPClient, options: DeliveryOptions = DeliveryOptions(), history: LocalServerAPI? = nil, logger: Logger) {
        self.history = history
        self.url = url
        self.client = client
        self.options = options
        self.generator = NIOLockedValueBox(SeededGenerator(seed: options.seed))
        self.logger = logger
    }

    /// Delivers `notifications` (in a random order and with duplicates when so configured), each
    /// until acknowledged.
    public func deliver(_ notifications: [SignedNotification]) async throws(LocalStoreError) -> DeliveryReport {
        for notification in notifications { history?.record(notification: notification.signedPayload, at: notification.signedDate) }
        var report = DeliveryReport()
        let plan: [(SignedNotification, duplicate: Bool)] = generator.withLockedValue { generator in
            var kept = notifications
            if options.dropProbability > 0 {
                kept = notifications.filter { _ in Double.random(in: 0..<1, using: &generator) >= options.dropProbability }
                report.dropped = notifications.count - kept.count
            }
            var plan = kept.map { ($0, duplicate: false) }
            for notification in kept where options.duplicateProbability > 0 && Double.random(in: 0..<1, using: &generator) < options.duplicateProbability {
                plan.append((notification, duplicate: true))
            }
            if options.shuffle { plan.shuffle(using: &generator) }
            return plan
        }
        var acknowledged: Set<String> = []
        for (notification, _) in plan {
            report.retries += try await deliver(notification)
            if acknowledged.insert(notification.notificationUUID).inserted {
                report.delivered += 1
            } else {
                report.duplicates += 1
            }
        }
        return report
    }

    /// Delivers one notification until a 2xx; returns how many attempts were retried.
    public func deliver(_ notification: SignedNotification) async throws(LocalStoreError) -> Int {
        try await deliver(signedPayload: notification.signedPayload, id: notification.notificationUUID)
    }

    /// Delivers one signed notification payload until a 2xx; returns how many attempts were retried.
    public func deliver(signedPayload: String, id: String = "") async throws(LocalStoreError) -> Int {
        var body = ByteBuffer()
        body.writeString(#"{"signedPayload":""#)
        body.writeString(signedPayload)
        body.writeString(#""}"#)
        var retries = 0
        while true {
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(body)
            var failure: String
            do {
                let response = try await client.execute(request, timeout: .seconds(30))
                _ = try await response.body.collect(upTo: 64 * 1024)
                if (200..<300).contains(response.status.code) { return retries }
                failure = "HTTP \(response.status.code)"
            } catch {
                failure = "\(error)"
            }
            guard retries < options.retryDelays.count else {
                throw LocalStoreError(
                    .deliveryFailed, "notification \(id) was not acknowledged after \(retries + 1) attempts (last: \(failure))")
            }
            logger.debug("notification delivery failed; retrying", metadata: ["notification.uuid": "\(id)", "failure": "\(failure)"])
            try? await Task.sleep(for: options.retryDelays[retries])
            retries += 1
        }
    }
}
