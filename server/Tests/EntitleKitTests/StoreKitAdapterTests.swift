#if !canImport(StoreKit)
import AppStoreModels
import AppStoreServerAPI
import Crypto
import EntitleCore
@testable import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import LocalAppStore
import StoreKitMirror
import Testing

/// EntitleKit's StoreKit 2 adapter (`StoreKitStore`), the source an app compiles against StoreKit,
/// compiled here against StoreKitMirror and driven through it by the local App Store
/// (`LocalStoreKitBackend`): every transaction is the JWS the local store signs with the chain the
/// test server trusts. StoreKit's backend is process-wide, as StoreKit is: the suite runs serially.
@Suite("StoreKitStore through the StoreKit mirror", .serialized)
struct StoreKitAdapterTests {
    static let individual = "com.screentimerewards.individual.monthly"
    static let family = "com.screentimerewards.family.monthly"

    /// The test server, a local App Store whose signer the server trusts installed as StoreKit's backend,
    /// and an app on EntitleKit with `StoreKitStore`.
    struct Device {
        let server: EntitleTests.Server
        let store: LocalStoreKitBackend
        let folder: URL

        func entitle(user: String = "parent-1", online: Bool = true) throws -> Entitle {
            var configuration = server.configuration(folder: folder, online: online)
            configuration.store = StoreKitStore()
            configuration.retryDelay = .milliseconds(10)
            configuration.submitRetries = online ? 3 : 0
            return try Entitle(configuration: configuration, appUserID: user)
        }
    }

    static func run(
        example: String = "ScreenTimeRewards", bundleID: String = "com.screentimerewards", catalog: Catalog? = nil,
        offerKeys: [String: P256.Signing.PublicKey]? = nil, _ body: @Sendable (Device) async throws -> Void
    ) async throws {
        let catalog = catalog ?? Fixtures.exampleCatalog(example)
        try await EntitleTests.run(example: example, bundleID: bundleID, catalog: catalog) { server in
            let signer = try AppStoreSigner(key: server.pki.leafKey, chain: [server.pki.leaf, server.pki.intermediate, server.pki.root])
            let simulator = StoreSimulator(catalog: catalog, bundleID: bundleID, environment: .sandbox, signer: signer)
            let check = offerKeys.map { OfferSignatureCheck(keys: $0, now: server.clock.reading) }
            let store = LocalStoreKitBackend(simulator: simulator, now: server.clock.reading, offerCheck: check)
            StoreKitMirrorRuntime.install(store)
            defer { StoreKitMirrorRuntime.uninstall() }
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await body(Device(server: server, store: store, folder: folder))
        }
    }

    /// Waits (bounded) for customer info that satisfies `condition`, asked of the server each time.
    static func eventually(_ entitle: Entitle, _ condition: @escaping @Sendable (CustomerInfo) -> Bool) async -> Bool {
        for _ in 0..<600 {
            if let info = try? await entitle.customerInfo(fetchPolicy: .fetchCurrent), condition(info) { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    @Test("purchase: StoreKit's signed transaction reaches the server with the user's appAccountToken, and is finished only once stored")
    func purchase() async throws {
        try await Self.run { device in
            let entitle = try device.entitle()
            let outcome = await entitle.purchase(Self.family)
            guard case .success(let info) = outcome else {
                Issue.record("expected success, got \(outcome.code)")
                return
            }
            #expect(info.isActive("family", at: device.server.clock.now))
            #expect(device.store.unfinishedIDs.isEmpty, "finished after the server stored it")
            let token = try #require(info.appAccountToken)
            #expect(device.store.purchaseOptions.first?.contains(.appAccountToken(token)) == true)
        }
    }

    @Test("Ask to Buy: pending, then the approved transaction arrives on Transaction.updates and unlocks")
    func askToBuy() async throws {
        try await Self.run { device in
            let entitle = try device.entitle()
            device.store.nextPurchase(.askToBuy)
            let outcome = await entitle.purchase(Self.family)
            #expect(outcome == .pending)
            #expect(try await !entitle.customerInfo(fetchPolicy: .fetchCurrent).isActive("family", at: device.server.clock.now))
            await entitle.startTransactionUpdates()
            try await device.store.approvePending()
            let approved = await Self.eventually(entitle) { $0.isActive("family", at: device.server.clock.now) }
            #expect(approved, "the approval reached the server through Transaction.updates")
            await entitle.stopTransactionUpdates()
        }
    }

    @Test("the user closes the sheet: cancelled, nothing bought, nothing to say")
    func cancelled() async throws {
        try await Self.run { device in
            let entitle = try device.entitle()
            device.store.nextPurchase(.cancel)
            let outcome = await entitle.purchase(Self.family)
            #expect(outcome == .cancelled)
            #expect(outcome.userMessage.isEmpty)
            #expect(device.store.originals.isEmpty)
        }
    }

    @Test("upgrade: Individual to Family in the same group takes effect at once (a new transaction StoreKit returns)")
    func upgrade() async throws {
        try await Self.run { device in
            let entitle = try device.entitle()
            guard case .success = await entitle.purchase(Self.individual) else {
                Issue.record("the first purchase must succeed")
                return
            }
            let outcome = await entitle.purchase(Self.family)
            guard case .success(let info) = outcome else {
                Issue.record("expected the upgrade to succeed, got \(outcome.code)")
                return
            }
            #expect(info.isActive("family", at: device.server.clock.now))
            #expect(device.store.originals.count == 1, "an upgrade continues the same subscription")
            #expect(info.subscriptions.contains { $0.productID == Self.family })
        }
    }

    @Test("restore on a new install: AppStore.sync, then Transaction.currentEntitlements to the server")
    func restore() async throws {
        try await Self.run { device in
            guard case .success = try await device.entitle().purchase(Self.family) else {
                Issue.record("the purchase must succeed")
                return
            }
            // A new install: another cache folder, the same store account, the user signed in again.
            let reinstalled = Device(server: device.server, store: device.store, folder: EntitleTests.folder())
            defer { try? FileManager.default.removeItem(at: reinstalled.folder) }
            let entitle = try reinstalled.entitle(user: "parent-1")
            let outcome = try await entitle.restore()
            guard case .restored(let info) = outcome else {
                Issue.record("expected restored, got \(outcome)")
                return
            }
            #expect(info.isActive("family", at: device.server.clock.now))
        }
    }

    @Test("an app moving in: what StoreKit knows and the server never saw (an expired subscription too) reaches it with syncPurchases, once per install; another user's sync moves nothing")
    func syncPurchases() async throws {
        try await Self.run { device in
            // Bought before the app used Entitle, straight through StoreKit: Individual, lapsed since.
            let individual = try #require(try await Product.products(for: [Self.individual]).first)
            _ = try await individual.purchase()
            device.server.clock.advance(days: 40)
            let entitle = try device.entitle()
            #expect(try await entitle.customerInfo(fetchPolicy: .fetchCurrent).subscriptions.isEmpty, "the server has never seen it")

            let synced = try await entitle.syncPurchases()
            let lapsed = try #require(synced.subscriptions.first)
            #expect(lapsed.productID == Self.individual && lapsed.expiresAt.map { $0 < device.server.clock.now } == true)
            #expect(!synced.isActive("individual", at: device.server.clock.now))
            // Once per install: the next launch's call sends nothing, so it answers even offline (from the cache);
            // `force` sends again, and offline that fails.
            let offline = try device.entitle(online: false)
            #expect(try await offline.syncPurchases().subscriptions.count == 1)
            await #expect(throws: EntitleError.self) { try await offline.syncPurchases(force: true) }

            // Family bought through StoreKit meanwhile (no listener): a forced sync brings it.
            let family = try #require(try await Product.products(for: [Self.family]).first)
            _ = try await family.purchase()
            #expect(try await entitle.syncPurchases(force: true).isActive("family", at: device.server.clock.now))

            // Another user on the same store account (a shared iPad): a background sync moves nothing.
            let other = try await device.entitle(user: "parent-2").syncPurchases()
            #expect(!other.isActive("family", at: device.server.clock.now))
            #expect(try await entitle.customerInfo(fetchPolicy: .fetchCurrent).isActive("family", at: device.server.clock.now))
        }
    }

    @Test("a refund arrives on Transaction.updates: the revoked transaction goes to the server and access ends")
    func refund() async throws {
        try await Self.run { device in
            let entitle = try device.entitle()
            guard case .success = await entitle.purchase(Self.family), let original = device.store.originals.first else {
                Issue.record("the purchase must succeed")
                return
            }
            await entitle.startTransactionUpdates()
            device.server.clock.advance(days: 3)
            try await device.store.refund(original)
            let revoked = await Self.eventually(entitle) { !$0.isActive("family", at: device.server.clock.now) }
            #expect(revoked, "the refund reached the server through Transaction.updates")
            await entitle.stopTransactionUpdates()
        }
    }

    @Test("a transaction left unfinished (the server was unreachable) is handed over at the next launch and finished once stored")
    func unfinishedOnNextLaunch() async throws {
        try await Self.run { device in
            let offline = try device.entitle(online: false)
            let outcome = await offline.purchase(Self.family)
            #expect(outcome.code == "purchase.network")
            #expect(device.store.unfinishedIDs.count == 1, "StoreKit keeps it unfinished")

            // The next launch: the same store account, the app online again.
            let relaunched = device.store.relaunched()
            StoreKitMirrorRuntime.install(relaunched)
            let entitle = try device.entitle()
            await entitle.startTransactionUpdates()
            let delivered = await Self.eventually(entitle) { $0.isActive("family", at: device.server.clock.now) }
            #expect(delivered)
            for _ in 0..<200 where !relaunched.unfinishedIDs.isEmpty { try await Task.sleep(for: .milliseconds(25)) }
            #expect(relaunched.unfinishedIDs.isEmpty, "finished once the server stored it")
            await entitle.stopTransactionUpdates()
        }
    }

    @Test("introductory offer: StoreKit's eligibility per product; the server's signed word passed to StoreKit, which follows it")
    func introductoryOffer() async throws {
        try await Self.run { device in
            let store = StoreKitStore()
            let before = try await store.products([Self.family])
            #expect(before.first?.isEligibleForIntroductoryOffer == true)
            // The app's server says no (a returning customer Apple doesn't know about): StoreKit follows it.
            let refused = Self.eligibility(allow: false)
            let result = try await store.purchase(Self.family, options: PurchaseOptions(introductoryOfferEligibility: refused))
            guard case .purchased(let transaction) = result else {
                Issue.record("expected a purchase, got \(result)")
                return
            }
            let options = try #require(device.store.purchaseOptions.first)
            #expect(options.contains(.introductoryOfferEligibility(compactJWS: refused)))
            let payload = try #require(Self.payload(transaction.jws))
            #expect(payload.offerType == nil, "no introductory offer: the server's word was no")
            let after = try await store.products([Self.family])
            #expect(after.first?.isEligibleForIntroductoryOffer == false)
        }
    }

    @Test("a promotional offer goes to StoreKit in the form the server signed it (its compact JWS)")
    func promotionalOffer() async throws {
        try await Self.run(example: "Epilogue", bundleID: "com.epilogue.app") { device in
            let store = StoreKitStore()
            let offer = PromotionalOfferResponse(
                productID: "com.epilogue.plus.monthly", offerID: "winback.plus.half", keyID: "KEY1", nonce: UUID(), timestamp: 1_767_225_600_000,
                signature: Data([1, 2, 3]).base64EncodedString(), appAccountToken: UUID(), compactJWS: "eyJhbGciOiJFUzI1NiJ9.eyJvZmZlciI6MX0.c2ln")
            let result = try await store.purchase(
                "com.epilogue.plus.monthly", options: PurchaseOptions(appAccountToken: offer.appAccountToken, promotionalOffer: SignedPromotionalOffer(offer)))
            guard case .purchased(let transaction) = result else {
                Issue.record("expected a purchase, got \(result)")
                return
            }
            let options = try #require(device.store.purchaseOptions.first)
            #expect(options.contains { if case .promotionalOfferJWS(offerID: "winback.plus.half", compactJWS: offer.compactJWS) = $0.kind { true } else { false } })
            #expect(options.contains(.appAccountToken(offer.appAccountToken)))
            let payload = try #require(Self.payload(transaction.jws))
            #expect(payload.offerIdentifier == "winback.plus.half")
        }
    }

    @Test("with Apple's checks of offer signatures: what the app's key signed is taken, another key's is refused as StoreKit refuses it")
    func checkedOffers() async throws {
        let key = P256.Signing.PrivateKey()
        try await Self.run(example: "Epilogue", bundleID: "com.epilogue.app", offerKeys: ["KEY1": key.publicKey]) { device in
            let store = StoreKitStore()
            let (product, offerID) = ("com.epilogue.plus.monthly", "winback.plus.half")
            func offer(signedWith signer: P256.Signing.PrivateKey) throws -> PromotionalOfferResponse {
                let jws = try PromotionalOfferJWS.sign(
                    bundleID: "com.epilogue.app", productID: product, offerID: offerID, transactionID: nil, key: signer, keyID: "KEY1", issuerID: "issuer",
                    nonce: UUID(), at: device.server.clock.now)
                return PromotionalOfferResponse(
                    productID: product, offerID: offerID, keyID: "KEY1", nonce: UUID(), timestamp: 0, signature: "", appAccountToken: UUID(), compactJWS: jws)
            }
            let forged = try offer(signedWith: P256.Signing.PrivateKey())
            let refused = await #expect(throws: StoreFailure.self) {
                _ = try await store.purchase(product, options: PurchaseOptions(appAccountToken: forged.appAccountToken, promotionalOffer: SignedPromotionalOffer(forged)))
            }
            #expect(refused?.kind == .offerRefused, "StoreKit's invalidOfferSignature")
            #expect(device.store.originals.isEmpty, "nothing bought")
            let genuine = try offer(signedWith: key)
            let result = try await store.purchase(product, options: PurchaseOptions(appAccountToken: genuine.appAccountToken, promotionalOffer: SignedPromotionalOffer(genuine)))
            guard case .purchased(let transaction) = result else {
                Issue.record("expected a purchase, got \(result)")
                return
            }
            #expect(Self.payload(transaction.jws)?.offerIdentifier == offerID)
        }
    }

    static func eligibility(allow: Bool) -> String {
        let claims = #"{"aud":"appstore-intro-eligibility","allowIntroductoryOffer":\#(allow)}"#
        return "eyJhbGciOiJFUzI1NiJ9." + Data(claims.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + ".c2ln"
    }

    static func payload(_ jws: String) -> JWSTransactionDecodedPayload? {
        CompactSerialization.unverifiedPayload(of: jws, as: JWSTransactionDecodedPayload.self)
    }

    @Test("a win-back offer StoreKit lists for the product goes with the purchase; one it doesn't list is refused before the sheet")
    func winBackOffer() async throws {
        var catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        let index = try #require(catalog.products.firstIndex { $0.id.rawValue == Self.family })
        catalog.products[index].winBackOffers = [
            SubscriptionOffer(kind: .winBack, id: "family.comeback", paymentMode: .payUpFront, period: ISODuration(months: 1), price: nil)
        ]
        try await Self.run(catalog: catalog) { device in
            let entitle = try device.entitle()
            guard case .success = await entitle.purchase(Self.family), let original = device.store.originals.first else {
                Issue.record("the first purchase must succeed")
                return
            }
            // The month ends without renewal: the subscription lapses (the server sees it by time).
            device.server.clock.advance(days: 40)
            try await device.store.expire(original)
            let unknown = await entitle.purchase(Self.family, winBackOfferID: "not.listed")
            #expect(unknown.code == "purchase.productUnavailable")
            let outcome = await entitle.purchase(Self.family, winBackOfferID: "family.comeback")
            guard case .success(let info) = outcome else {
                Issue.record("the returning subscriber buys with the win-back offer, got \(outcome.code)")
                return
            }
            #expect(info.isActive("family", at: device.server.clock.now))
            let options = try #require(device.store.purchaseOptions.last)
            #expect(options.contains { if case .winBackOffer(let offer) = $0.kind { offer.id == "family.comeback" && offer.type == .winBack } else { false } })
            // Signed as Apple signs a redeemed win-back offer: its type, its identifier, its price (free here).
            let current = try await StoreKitStore().currentEntitlements().first { $0.productID == Self.family }
            let payload = try #require(current.flatMap { Self.payload($0.jws) })
            #expect(payload.offerType == .winBackOffer && payload.offerIdentifier == "family.comeback" && payload.price == 0)
            #expect(info.subscriptions.first?.periodType == .winBack)
        }
    }

    @Test("the sheets: manage subscriptions, offer-code redemption and refund request are StoreKit's, each shown in the app's scene")
    func sheets() async throws {
        try await Self.run { device in
            let entitle = try device.entitle()
            guard case .success = await entitle.purchase(Self.family) else {
                Issue.record("the purchase must succeed")
                return
            }
            let scene = await UIWindowScene()
            let managed = try await entitle.showManageSubscriptions(in: scene)
            #expect(managed.isActive("family", at: device.server.clock.now))
            _ = try await entitle.presentOfferCodeRedeemSheet(in: scene)
            let status = try await entitle.beginRefundRequest(for: Self.family, in: scene)
            #expect(status == .success)
            #expect(device.store.sheetsShown == ["manageSubscriptions", "offerCodeRedeem", "refundRequest"])
        }
    }
}
#endif
