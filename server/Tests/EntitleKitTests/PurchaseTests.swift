import AppStoreModels
import EntitleAPI
import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import NIOConcurrencyHelpers
import Testing

/// A store that signs like the App Store with the test PKI the server trusts, scripted by the test.
final class ScriptedStore: PurchaseStore {
    enum Next: Sendable { case buy, pending, cancel, unavailable }
    let pki: TestPKI
    let apple: AppleFacts
    let clock: TestClock
    let next = NIOLockedValueBox(Next.buy)
    let finished = NIOLockedValueBox<[String]>([])
    let owned = NIOLockedValueBox<[SignedTransaction]>([])
    let tokens = NIOLockedValueBox<[UUID?]>([])
    let stream: AsyncStream<SignedTransaction>
    let continuation: AsyncStream<SignedTransaction>.Continuation

    init(pki: TestPKI, apple: AppleFacts, clock: TestClock) {
        (self.pki, self.apple, self.clock) = (pki, apple, clock)
        (stream, continuation) = AsyncStream<SignedTransaction>.makeStream()
    }

    func sign(_ transaction: JWSTransactionDecodedPayload) -> SignedTransaction {
        SignedTransaction(jws: pki.sign(transaction), transactionID: transaction.transactionId ?? "", productID: transaction.productId ?? "")
    }

    func purchase(_ productID: String, options: PurchaseOptions) async throws(StoreFailure) -> StorePurchaseResult {
        tokens.withLockedValue { $0.append(options.appAccountToken) }
        switch next.withLockedValue({ $0 }) {
        case .pending: return .pending
        case .cancel: return .cancelled
        case .unavailable: throw StoreFailure(.productUnavailable, "\(productID) is not on sale")
        case .buy:
            var transaction = apple.subscription(productID, original: "store-\(owned.withLockedValue { $0.count })", purchase: clock.now,
                                                 expires: clock.now.addingTimeInterval(30 * 86_400))
            transaction.appAccountToken = options.appAccountToken
            let signed = sign(transaction)
            owned.withLockedValue { $0.append(signed) }
            return .purchased(signed)
        }
    }

    func products(_ ids: [String]) async throws(StoreFailure) -> [StoreProduct] {
        ids.map { StoreProduct(id: $0, displayName: $0, displayPrice: "$1.00") }
    }
    func finish(_ transaction: SignedTransaction) async { finished.withLockedValue { $0.append(transaction.transactionID) } }
    func transactionUpdates() -> AsyncStream<SignedTransaction> { stream }
    func currentEntitlements() async throws(StoreFailure) -> [SignedTransaction] { owned.withLockedValue { $0 } }
    func sync() async throws(StoreFailure) {}
}

@Suite("Entitle: purchases")
struct PurchaseTests {
    static let family = "com.screentimerewards.family.monthly"

    static func client(_ server: EntitleTests.Server, _ store: ScriptedStore, folder: URL, online: Bool = true, user: String = "parent-1") throws -> Entitle {
        var configuration = server.configuration(folder: folder, online: online)
        configuration.store = store
        configuration.retryDelay = .milliseconds(10)
        return try Entitle(configuration: configuration, appUserID: user)
    }

    @Test("a purchase carries the user's appAccountToken, is stored by the server, and only then finished")
    func success() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            let client = try Self.client(server, store, folder: folder)
            let outcome = await client.purchase(Self.family)
            guard case .success(let info) = outcome else {
                Issue.record("expected success, got \(outcome.code)")
                return
            }
            #expect(info.isActive("family", at: server.clock.now))
            #expect(store.tokens.withLockedValue { $0 } == [info.appAccountToken])
            #expect(store.finished.withLockedValue { $0 }.count == 1)
            #expect(outcome.code == "purchase.success" && !outcome.isRetryable)
        }
    }

    @Test("offline, the purchase is a retryable network error and the transaction stays unfinished")
    func offline() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            let offlineClient = try Self.client(server, store, folder: folder, online: false)
            let outcome = await offlineClient.purchase(Self.family)
            #expect(outcome.code == "purchase.network" && outcome.isRetryable)
            #expect(store.finished.withLockedValue { $0 }.isEmpty)
        }
    }

    @Test("Ask to Buy is pending on the server too; cancelled and unavailable say so", arguments: [ScriptedStore.Next.pending, .cancel, .unavailable])
    func otherOutcomes(_ next: ScriptedStore.Next) async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            store.next.withLockedValue { $0 = next }
            let client = try Self.client(server, store, folder: folder)
            let outcome = await client.purchase(Self.family)
            switch next {
            case .pending:
                #expect(outcome == .pending)
                #expect(try await client.customerInfo(fetchPolicy: .fetchCurrent).pendingPurchases.map(\.productID) == [Self.family])
            case .cancel: #expect(outcome == .cancelled)
            default: #expect(outcome.code == "purchase.productUnavailable" && !outcome.userMessage.isEmpty)
            }
        }
    }

    @Test("a refund arriving through transaction updates revokes at once")
    func refundThroughUpdates() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            let client = try Self.client(server, store, folder: folder)
            guard case .success = await client.purchase(Self.family) else {
                Issue.record("the purchase must succeed")
                return
            }
            let updates = await client.customerInfoUpdates()
            await client.startTransactionUpdates()
            server.clock.set(ReferenceTime.start.addingTimeInterval(3600))
            var refunded = server.apple.subscription(Self.family, original: "store-0", purchase: ReferenceTime.start, expires: ReferenceTime.day(30),
                                                     signed: server.clock.now)
            refunded.revocationDate = server.clock.now
            store.continuation.yield(store.sign(refunded))
            for await info in updates {
                #expect(!info.isActive("family", at: server.clock.now))
                break
            }
            await client.stopTransactionUpdates()
        }
    }

    @Test("restore on a second device (a new cache folder) brings the purchase back")
    func restore() async throws {
        try await EntitleTests.run { server in
            let (first, second) = (EntitleTests.folder(), EntitleTests.folder())
            defer { for folder in [first, second] { try? FileManager.default.removeItem(at: folder) } }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            let buyer = try Self.client(server, store, folder: first)
            guard case .success = await buyer.purchase(Self.family) else {
                Issue.record("the purchase must succeed")
                return
            }
            let device = try Self.client(server, store, folder: second)
            let restored = try await device.restore()
            #expect(restored.customerInfo.isActive("family", at: server.clock.now) && restored.message == nil)
        }
    }

    @Test("every outcome has a stable code, the seed apps' message, and whether a retry helps", arguments: [
        (PurchaseOutcome.cancelled, "purchase.cancelled", "", false),
        (.pending, "purchase.pending", "Purchase is pending approval. You'll get access as soon as it's approved.", false),
        (.verificationFailed("x"), "purchase.verificationFailed", "Purchase verification failed. Please contact support.", false),
        (.networkError("x"), "purchase.network", "Network error. Check connection and try again.", true),
        (.storeUnavailable("x"), "purchase.storeUnavailable", "The App Store isn't available right now. Please try again later.", true),
        (.productUnavailable("x"), "purchase.productUnavailable", "Not available in your region.", false),
        (.notAllowed("x"), "purchase.notAllowed", "Purchases aren't allowed on this device or account.", false),
    ])
    func outcomeTable(outcome: PurchaseOutcome, code: String, message: String, retryable: Bool) {
        #expect(outcome.code == code)
        #expect(outcome.userMessage == message)
        #expect(outcome.isRetryable == retryable)
    }

    @Test("seed 002: a user who already has the subscription active buying it again: nothing is bought, the answer says so; another product still goes to the store")
    func alreadySubscribed() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            let client = try Self.client(server, store, folder: folder)
            guard case .success = await client.purchase(Self.family) else {
                Issue.record("the first purchase failed")
                return
            }
            let again = await client.purchase(Self.family)
            guard case .alreadySubscribed(let info) = again else {
                Issue.record("expected alreadySubscribed, got \(again.code)")
                return
            }
            #expect(info.isActive("family", at: server.clock.now))
            #expect(again.code == "purchase.alreadySubscribed" && again.userMessage == "You're already subscribed." && !again.isRetryable)
            #expect(store.owned.withLockedValue { $0.count } == 1, "the store was not asked again")
            // Once the month is over, buying it is buying again.
            server.clock.set(server.clock.now.addingTimeInterval(31 * 86_400))
            guard case .success = await client.purchase(Self.family) else {
                Issue.record("a purchase after the subscription ended must reach the store")
                return
            }
            #expect(store.owned.withLockedValue { $0.count } == 2)
        }
    }
}
