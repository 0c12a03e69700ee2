import AsyncHTTPClient
import BenchmarkSupport
import Foundation
import NIOCore
import Synchronization

/// Every interval: each instance's resident memory, and from its `/metrics` the allocator's heap in use,
/// whether it holds the first app's webhooks lease (publishes), the webhook deliveries it made and the reconciliation passes it
/// completed since the last sample (a counter that went down belongs to a new process).
final class Monitor: Sendable {
    struct Sample: Sendable {
        var seconds: Int
        var kb: [Int]
        /// The heap in use (`entitle_heap_in_use_bytes`) in KB, by instance; 0 when it didn't answer.
        var heapKB: [Int]
        /// Deliveries in this interval, by instance.
        var delivered: [Int]
        /// Since the soak began, by instance.
        var deliveredTotal: [Int]
        var reconciled: [Int]
        /// Whether each instance said it holds the webhooks lease.
        var publishing: [Bool]
    }

    let instances: [Instance]
    let http: HTTPClient
    private let taken = Mutex<[Sample]>([])

    let app: String

    init(instances: [Instance], http: HTTPClient, app: String) {
        self.instances = instances
        self.http = http
        self.app = app
    }

    func samples() -> [Sample] { taken.withLock { $0 } }

    func sample(every interval: Duration, from begin: ContinuousClock.Instant, until end: ContinuousClock.Instant) async {
        let clock = ContinuousClock()
        var previous = instances.map { _ in (delivered: 0, reconciled: 0) }
        var totals = instances.map { _ in (delivered: 0, reconciled: 0) }
        var next = begin
        while true {
            var sample = Sample(seconds: Int((clock.now - begin).inSeconds), kb: [], heapKB: [], delivered: [], deliveredTotal: [], reconciled: [], publishing: [])
            for (number, instance) in instances.enumerated() {
                sample.kb.append(instance.residentKB())
                let counters = await metrics(instance)
                var delivered = 0
                if let counters {
                    delivered = counters.delivered >= previous[number].delivered ? counters.delivered - previous[number].delivered : counters.delivered
                    let reconciled = counters.reconciled >= previous[number].reconciled
                        ? counters.reconciled - previous[number].reconciled : counters.reconciled
                    totals[number].delivered += delivered
                    totals[number].reconciled += reconciled
                    previous[number] = (counters.delivered, counters.reconciled)
                }
                sample.publishing.append(counters?.publishing ?? false)
                sample.heapKB.append((counters?.heapBytes ?? 0) / 1024)
                sample.delivered.append(delivered)
                sample.deliveredTotal.append(totals[number].delivered)
                sample.reconciled.append(totals[number].reconciled)
            }
            taken.withLock { $0.append(sample) }
            if clock.now >= end { return }
            next = next + interval
            try? await clock.sleep(until: min(next, end))
        }
    }

    /// The instance's delivered webhook attempts, completed reconciliation passes, whether it publishes,
    /// and its heap in use; `nil` when it doesn't answer.
    func metrics(_ instance: Instance) async -> (delivered: Int, reconciled: Int, publishing: Bool, heapBytes: Int)? {
        guard let response = try? await http.execute(HTTPClientRequest(url: instance.base + "/metrics"), timeout: .seconds(5)),
            let body = try? await response.body.collect(upTo: 16 << 20), response.status == .ok
        else { return nil }
        var delivered = 0
        var reconciled = 0
        var publishing = false
        var heap = 0
        for line in String(buffer: body).split(separator: "\n") where !line.hasPrefix("#") {
            guard let value = line.split(separator: " ").last.flatMap({ Double($0) }) else { continue }
            if line.hasPrefix("entitle_webhook_attempts_total{"), line.contains("outcome=\"delivered\"") { delivered += Int(value) }
            if line.hasPrefix("entitle_reconciliation_passes_total{"), line.contains("outcome=\"completed\"") { reconciled += Int(value) }
            if line.hasPrefix("entitle_webhook_publisher{"), line.contains("app=\"\(app)\""), value == 1 { publishing = true }
            if line.hasPrefix("entitle_heap_in_use_bytes ") { heap = Int(value) }
        }
        return (delivered, reconciled, publishing, heap)
    }
}
