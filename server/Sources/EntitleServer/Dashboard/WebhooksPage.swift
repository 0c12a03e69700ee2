import EntitleCore
import EntitleStorage
import Foundation

/// `/dashboard/webhooks`: the app's endpoints with their health, a form to add one (its secret shown
/// once), the latest deliveries with every attempt's status and latency, and replay of failed ones.
enum WebhooksPage {
    struct Delivery {
        var delivery: WebhookDelivery
        var attempts: [WebhookAttempt]
    }

    static func render(
        app: String, endpoints: [WebhookEndpoint], deliveries: [Delivery], counts: [WebhookDelivery.Status: Int], created: (id: String, secret: String)?
    ) -> String {
        var body = "<h1>Webhooks of \(HTML.escape(app))</h1>"
        body += "<p class=\"muted\" data-webhook-counts>" + WebhookDelivery.Status.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }
            .joined(separator: " · ") + "</p>"
        if let created {
            body += """
                <section class="panel"><p>New endpoint <code>\(HTML.escape(created.id))</code>. Copy its signing secret now: it is \
                shown once.</p><p><code data-new-secret>\(HTML.escape(created.secret))</code></p></section>
                """
        }
        body += """
            <form class="inline" method="post" action="/dashboard/webhooks">
            <input name="url" placeholder="https://api.example.com/entitle" size="40" maxlength="2048" required>
            <input name="events" placeholder="event types, comma-separated (all when empty)" size="36">
            <button type="submit">Add endpoint</button></form>
            """
        let endpointRows = endpoints.map { endpoint -> [String] in
            let health = endpoint.consecutiveFailures == 0
                ? "healthy"
                : "\(endpoint.consecutiveFailures) failures in a row" + (endpoint.pausedUntil.map { ", resting until \($0.formatted(.iso8601))" } ?? "")
            let actions = """
                <form method="post" action="/dashboard/webhooks/\(HTML.escape(endpoint.id))/test"><button type="submit">Send test</button></form>
                <form method="post" action="/dashboard/webhooks/\(HTML.escape(endpoint.id))/replay"><button type="submit">Replay failed</button></form>
                <form method="post" action="/dashboard/webhooks/\(HTML.escape(endpoint.id))/remove"><button type="submit">Remove</button></form>
                """
            return [
                "<code>\(HTML.escape(endpoint.id))</code>", HTML.escape(endpoint.url),
                HTML.escape(endpoint.eventTypes.isEmpty ? "every event" : endpoint.eventTypes.joined(separator: ", ")),
                "…" + HTML.escape(endpoint.secrets.map { String($0.suffix(4)) }.joined(separator: ", …")), HTML.escape(health), actions,
            ]
        }
        body += "<section class=\"panel\"><h2>Endpoints</h2>" + (endpointRows.isEmpty
            ? "<p class=\"muted\">No endpoints yet.</p>"
            : DashboardLayout.table(id: "webhook-endpoints", header: ["id", "URL", "events", "secrets", "health", ""], rows: endpointRows)) + "</section>"
        let deliveryRows = deliveries.map { item -> [String] in
            let delivery = item.delivery
            let attempts = item.attempts.map { attempt in
                HTML.escape(
                    "#\(attempt.attempt) \(attempt.at.formatted(.iso8601)) \(attempt.status.map(String.init) ?? "–") \(attempt.latencyMilliseconds) ms"
                        + (attempt.error.map { " \($0)" } ?? ""))
            }.joined(separator: "<br>")
            return [
                String(delivery.id), "<code>\(HTML.escape(delivery.eventType))</code>", HTML.escape(delivery.appUserID.rawValue),
                HTML.escape(delivery.occurredAt.formatted(.iso8601)), HTML.escape(delivery.status.rawValue),
                attempts.isEmpty ? "<span class=\"muted\">not tried yet</span>" : attempts,
            ]
        }
        body += "<section class=\"panel\"><h2>Latest deliveries</h2>" + (deliveryRows.isEmpty
            ? "<p class=\"muted\">Nothing sent yet.</p>"
            : DashboardLayout.table(id: "webhook-deliveries", header: ["id", "type", "subscriber", "occurred", "status", "attempts"], rows: deliveryRows))
            + "</section>"
        return DashboardLayout.page(title: "Webhooks", section: .webhooks, body: body)
    }
}
