import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
import LocalAppStore
import Testing

/// Seed 001's status edge cases (Epilogue: is the user Plus?) through the real server, each reached
/// with the local App Store's signed notifications. Billing retry keeps Plus, as the seed's table says
/// (the catalog's `policies.billingRetryAccess`; Apple's default is no access), until Apple's 60 days of
/// retry have passed.
@Suite("Seed 001 status edge cases (Epilogue)")
struct Seed001ScenarioTests {
    static let monthly = "com.epilogue.plus.monthly"
    static let annual = "com.epilogue.plus.annual"
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    enum Scenario: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case active, gracePeriod, billingRetry, billingRetryOver, expired, refunded, upgradedMidCycle, downgraded

        var testDescription: String { rawValue }

        /// Whether Plus is active, and the subscription state the API reports.
        var expected: (isPlus: Bool, state: String, productID: String) {
            switch self {
            case .active: (true, "active", monthly)
            case .gracePeriod: (true, "grace_period", monthly)
            case .billingRetry: (true, "billing_retry", monthly)
            case .billingRetryOver: (false, "billing_retry", monthly)
            case .expired: (false, "expired", monthly)
            case .refunded: (false, "revoked", monthly)
            case .upgradedMidCycle: (true, "active", annual)
            case .downgraded: (true, "active", annual)
            }
        }
    }

    @Test("the Plus answer and state for each row of the table", arguments: Scenario.allCases)
    func edgeCase(_ scenario: Scenario) async throws {
        try await ServerHarness.run(example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            var store = harness.localStore()
            let product = scenario == .downgraded ? Self.annual : Self.monthly
            let original = try await harness.buy(client, &store, product, as: "reader", at: Self.day(0)).originalTransactionID
            let expires = try #require(store.subscription(original)?.expiresDate)
            var now = Self.day(10)
            switch scenario {
            case .active:
                break
            case .gracePeriod:
                try await harness.deliver(client, store.failRenewal(original))
                now = expires + 86_400
            case .billingRetry, .billingRetryOver:
                try await harness.deliver(client, store.failRenewal(original))
                try await harness.deliver(client, store.expireGracePeriod(original))
                now = expires + (scenario == .billingRetry ? 20 : 61) * 86_400
            case .expired:
                try await harness.deliver(client, store.setAutoRenew(original, false, at: Self.day(5)))
                try await harness.deliver(client, store.expire(original, reason: .voluntary))
                now = expires + 86_400
            case .refunded:
                try await harness.deliver(client, [store.consumptionRequest(original, at: Self.day(3))])
                try await harness.deliver(client, store.refund(original, at: Self.day(4)))
            case .upgradedMidCycle:
                try await harness.deliver(client, store.changeProduct(original, to: Self.annual, at: Self.day(8)))
            case .downgraded:
                try await harness.deliver(client, store.changeProduct(original, to: Self.monthly, at: Self.day(8)))
            }
            harness.clock.set(now)
            let subscriber = try await harness.subscriber(client, "reader")
            let expected = scenario.expected
            #expect(subscriber.entitlements.first { $0.id == "plus" }?.isActive == expected.isPlus)
            #expect(subscriber.subscriptions.first?.state.rawValue == expected.state)
            #expect(subscriber.subscriptions.first?.productID == expected.productID)
            if scenario == .downgraded {
                #expect(subscriber.subscriptions.first?.renewsToProductID == Self.monthly)
            }
            let conversation = try ServerHarness.decode(AccessResponse.self, try await harness.get(
                client, "/v1/subscribers/reader/access/conversations?usage=3", key: harness.publicKey("reader")))
            #expect((conversation.outcome != "denied") == expected.isPlus)
            if scenario == .billingRetry {
                // Kept with a warning, as in Apple's grace period: the app asks for a new payment method.
                let insights = try ServerHarness.decode(AccessResponse.self, try await harness.get(
                    client, "/v1/subscribers/reader/access/insights.advanced", key: harness.publicKey("reader")))
                #expect(insights.outcome == "allowed_with_warning")
                #expect(insights.paywall == "update_payment")
            }
        }
    }
}
