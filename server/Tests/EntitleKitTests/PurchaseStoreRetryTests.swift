import EntitleKit
import Foundation
import NIOConcurrencyHelpers
import Testing

/// Loading products again when the store can't be reached, as seed 001 asks: three tries, 2 s then 4 s.
@Suite("PurchaseStore retries")
struct PurchaseStoreRetryTests {
    /// The App Store as a device sees it, failing the first `failures` times it is asked for products.
    final class Flaky: PurchaseStore, Sendable {
        let failures: Int
        let kind: StoreFailure.Kind
        let asked = NIOLockedValueBox(0)
        init(failures: Int, kind: StoreFailure.Kind = .storeUnavailable) {
            self.failures = failures
            self.kind = kind
        }
        func products(_ ids: [String]) async throws(StoreFailure) -> [StoreProduct] {
            let attempt = asked.withLockedValue { $0 += 1; return $0 }
            guard attempt > failures else { throw StoreFailure(kind, "attempt \(attempt)") }
            return ids.map { StoreProduct(id: $0, displayName: $0, displayPrice: "USD 4.99") }
        }
        func purchase(_ productID: String, options: PurchaseOptions) async throws(StoreFailure) -> StorePurchaseResult { .cancelled }
        func finish(_ transaction: SignedTransaction) async {}
        func transactionUpdates() -> AsyncStream<SignedTransaction> { AsyncStream { $0.finish() } }
        func currentEntitlements() async throws(StoreFailure) -> [SignedTransaction] { [] }
        func sync() async throws(StoreFailure) {}
    }

    @Test("two failures then the products: asked three times, waiting 2 s then 4 s as seed 001 does", arguments: [0, 1, 2])
    func recovers(failures: Int) async throws {
        let store = Flaky(failures: failures)
        let waits = NIOLockedValueBox<[Duration]>([])
        let products = try await store.products(["monthly"], attempts: 3, sleep: { delay in waits.withLockedValue { $0.append(delay) } })
        #expect(products.map(\.id) == ["monthly"])
        #expect(store.asked.withLockedValue { $0 } == failures + 1)
        #expect(waits.withLockedValue { $0 } == Array([Duration.seconds(2), .seconds(4)].prefix(failures)))
    }

    @Test("three failures: the last one is thrown after three tries; a product not on sale is thrown at once")
    func givesUp() async throws {
        let down = Flaky(failures: 5)
        let waits = NIOLockedValueBox<[Duration]>([])
        await #expect(throws: StoreFailure.self) {
            _ = try await down.products(["monthly"], attempts: 3, sleep: { delay in waits.withLockedValue { $0.append(delay) } })
        }
        #expect(down.asked.withLockedValue { $0 } == 3 && waits.withLockedValue { $0 } == [.seconds(2), .seconds(4)])
        let gone = Flaky(failures: 5, kind: .productUnavailable)
        await #expect(throws: StoreFailure.self) { _ = try await gone.products(["monthly"], attempts: 3, sleep: { _ in }) }
        #expect(gone.asked.withLockedValue { $0 } == 1)
    }
}
