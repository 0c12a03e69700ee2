import AppStoreServerAPI
import Testing

/// Slots are computed from the instant the caller gives, so the pacing is asserted without waiting.
@Suite("RequestPacer")
struct RequestPacerTests {
    let start = ContinuousClock.now

    @Test("an endpoint hands out one slot every 1/rate seconds, per environment, and frees up as time passes")
    func slots() {
        let pacer = RequestPacer()
        let production = (0..<3).map { _ in pacer.reserve(.subscriptionStatuses, sandbox: false, now: start) }
        #expect(production == [.zero, .milliseconds(20), .milliseconds(40)])
        // The sandbox's limit is a tenth of production's, and counted apart.
        let sandbox = (0..<2).map { _ in pacer.reserve(.subscriptionStatuses, sandbox: true, now: start) }
        #expect(sandbox == [.zero, .milliseconds(200)])
        // Another endpoint has its own slots.
        #expect(pacer.reserve(.refundHistory, sandbox: false, now: start) == .zero)
        #expect(pacer.reserve(.refundHistory, sandbox: false, now: start) == .milliseconds(100))
        // A second later the production slots are free again.
        #expect(pacer.reserve(.subscriptionStatuses, sandbox: false, now: start + .seconds(1)) == .zero)
    }

    @Test("a hold (Retry-After) delays the endpoint's next slots until it ends; a shorter hold doesn't shorten it")
    func hold() {
        let pacer = RequestPacer()
        pacer.hold(.transactionInfo, sandbox: false, until: start + .seconds(30))
        pacer.hold(.transactionInfo, sandbox: false, until: start + .seconds(5))
        #expect(pacer.reserve(.transactionInfo, sandbox: false, now: start) == .seconds(30))
        #expect(pacer.reserve(.transactionInfo, sandbox: false, now: start) == .seconds(30) + .milliseconds(20))
        #expect(pacer.reserve(.transactionInfo, sandbox: true, now: start) == .zero)
        #expect(pacer.reserve(.transactionHistory, sandbox: false, now: start) == .zero)
    }

    @Test("an unpaced pacer hands out every slot at once, and still honours a hold")
    func unpaced() {
        let pacer = RequestPacer.unpaced()
        #expect((0..<100).allSatisfy { _ in pacer.reserve(.subscriptionStatuses, sandbox: false, now: start) == .zero })
        pacer.hold(.subscriptionStatuses, sandbox: false, until: start + .seconds(2))
        #expect(pacer.reserve(.subscriptionStatuses, sandbox: false, now: start + .seconds(1)) == .seconds(1))
    }

    @Test("Apple's published limits: production per endpoint, the sandbox a tenth, never below one a second", arguments: APIEndpoint.allCases)
    func limits(endpoint: APIEndpoint) {
        #expect([50, 20, 10, 1].contains(endpoint.productionRate))
        #expect(endpoint.rate(sandbox: true) == max(1, endpoint.productionRate / 10))
    }
}
