import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Testing

extension Seed002ScenarioTests {
    @Test("edge case: two household members buy at once: both purchases recorded, premium for every member, the later one marked redundant so the app can suggest cancelling it")
    func membersBuyAtOnce() async throws {
        try await Self.run { harness, client in
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(ServerHarness.secretKey)"
            for member in ["partner-7", "teen-7"] {
                let joined = try await client.execute(uri: "/v1/subscribers/household-7/members/\(member)", method: .put, headers: headers)
                #expect(joined.status == .ok)
            }
            // Two Apple accounts, two purchases of household premium a second apart, submitted at the same moment.
            var store = harness.localStore()
            let first = try store.purchase(Self.monthly, appAccountToken: UUID(), at: Self.day(0), introductoryOffer: false)
            let second = try store.purchase(Self.monthly, appAccountToken: UUID(), at: Self.day(0).addingTimeInterval(1), introductoryOffer: false)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for purchase in [first, second] {
                    group.addTask {
                        try await harness.submit(client, "household-7", signed: purchase.signedTransaction)
                        try await harness.deliver(client, purchase.notifications)
                    }
                }
                try await group.waitForAll()
            }
            let household = try await harness.subscriber(client, "household-7")
            #expect(Set(household.subscriptions.map(\.originalTransactionID)) == [first.originalTransactionID, second.originalTransactionID], "neither lost")
            #expect(household.subscriptions.filter { $0.redundant == true }.map(\.originalTransactionID) == [second.originalTransactionID])
            #expect(household.entitlements.filter(\.isActive).map(\.id) == ["premium"])
            for member in ["partner-7", "teen-7"] {
                #expect(try await harness.subscriber(client, member).entitlements.filter(\.isActive).map(\.id) == ["premium"])
            }
            // Once the redundant one is cancelled and over, the other carries on, no longer marked.
            try await harness.deliver(client, try store.setAutoRenew(second.originalTransactionID, false, at: Self.day(2)))
            harness.clock.set(Self.day(3))
            #expect(try await harness.subscriber(client, "household-7").subscriptions.allSatisfy { $0.redundant == nil })
        }
    }
}
