import Foundation
import Prometheus

/// The server's metrics, exposed at `/metrics` in Prometheus' text format. Names follow
/// OpenTelemetry's HTTP conventions; labels are low-cardinality only (route templates, never paths
/// or user ids).
public final class ServerMetrics: Sendable {
    public let registry: PrometheusCollectorRegistry

    static let durationBuckets: [Duration] = [
        .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25),
        .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(5),
    ]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
    }

    /// `http_server_request_duration_seconds{http_request_method, http_route, http_response_status_code}`
    func recordRequest(method: String, route: String, status: Int, duration: Duration) {
        registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                metricName: "http_server_request_duration", unitName: "seconds", helpText: "Duration of HTTP server requests."),
            labels: [("http_request_method", method), ("http_route", route), ("http_response_status_code", String(status))],
            buckets: Self.durationBuckets
        ).record(duration)
    }

    /// `entitle_notifications_total{outcome}`: appended, duplicate, or rejected with the error code.
    func recordNotification(outcome: String) {
        registry.makeCounter(
            descriptor: MetricNameDescriptor(
                metricName: "entitle_notifications", unitName: "total", helpText: "App Store Server Notifications received, by outcome."),
            labels: [("outcome", outcome)]
        ).increment()
    }

    /// The exposition text.
    public func render() -> String {
        var buffer: [UInt8] = []
        registry.emit(into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
