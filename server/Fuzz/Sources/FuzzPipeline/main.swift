import AppStoreVerification
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import FuzzSupport
import LocalAppStore
import Logging

/// Apple's signed data with fuzzed *values*, through the whole path: every field of a transaction,
/// renewal info and notification drawn from `FuzzValues` (dates at the bounds of every calendar and
/// integer type, fractions, exponents, wrong types, prices and counts past their ranges, unknown
/// enumerations), signed by a trusted local authority, then verified, appended, folded, resolved
/// (subscriber, access, usage, trial), counted by analytics and published to webhooks — beside admin
/// calls (grants, overrides, open access) with fuzzed dates. Fails on a crash, a sanitizer report, an
/// internal error (`server.internal`, which no input may cause), or a projection that is not the fold
/// of the subscriber's events.

let base: Int64 = 1_767_225_600_000  // 2026-01-01
let apps = ["Epilogue", "ScreenTimeRewards", "MagicalStories"]

final class Pipeline: @unchecked Sendable {
    var clock = Date(timeIntervalSince1970: TimeInterval(base / 1000))
    let authority: LocalCertificateAuthority
    let catalogs: [Catalog]
    var store: (any LedgerStore)?
    var services: [AppServices] = []
    var folder: URL?
    var template: String?

    init() {
        authority = try! LocalCertificateAuthority.create(now: Date(timeIntervalSince1970: TimeInterval(base / 1000)))
        catalogs = apps.map { try! CatalogLoader().load(directory: packageRoot.appendingPathComponent("Examples/\($0)")) }
    }

    /// A fresh ledger for every input, so that a failure reproduces from its input alone.
    func services() async -> [AppServices] {
        if let store { await store.close() }
        if let folder { try? FileManager.default.removeItem(at: folder) }
        let scratch = URL(fileURLWithPath: FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory())
        let next = scratch.appendingPathComponent("entitle-fuzz-pipeline-\(getpid())-\(UUID().uuidString)")
        folder = next
        // A copy of a ledger migrated once: migrating each input's would take most of its time.
        if template == nil {
            let path = scratch.appendingPathComponent("entitle-fuzz-template-\(getpid()).sqlite").path
            try? FileManager.default.removeItem(atPath: path)
            await (try! await SQLiteLedgerStore.open(path: path)).close()
            template = path
        }
        try! FileManager.default.createDirectory(at: next, withIntermediateDirectories: true)
        try! FileManager.default.copyItem(atPath: template!, toPath: next.appendingPathComponent("entitle.sqlite").path)
        let opened = try! await SQLiteLedgerStore.open(path: next.appendingPathComponent("entitle.sqlite").path)
        store = opened
        let root = authority.root
        services = catalogs.map { catalog in
            let bundleID = catalog.bundleID ?? "app"
            let verifier = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: bundleID.rawValue, environment: .sandbox, appAppleID: 1234, rootCertificates: [root]),
                now: { [unowned self] in self.clock })
            var logger = Logger(label: "fuzz")
            logger.logLevel = .critical
            return AppServices(
                store: opened.forApp(bundleID), catalog: catalog, verifiers: [verifier], now: { [unowned self] in self.clock }, logger: logger)
        }
        for service in services {
            try! await service.webhooks.webhookStore.addEndpoint(WebhookEndpoint(
                id: "e-\(service.bundleID)", app: service.bundleID, url: "http://127.0.0.1:9/hook", eventTypes: [], secrets: ["whsec_fuzz"],
                createdAt: clock))
        }
        return services
    }
}

let pipeline = Pipeline()

/// What the inputs led to, by outcome (`ok` or the refusal's code), printed when the run ends: the
/// share of inputs that get past verification is what shows the values reach the ledger.
nonisolated(unsafe) var outcomes: [String: Int] = [:]
atexit {
    if let folder = pipeline.folder { try? FileManager.default.removeItem(at: folder) }
    if let template = pipeline.template { try? FileManager.default.removeItem(atPath: template) }
    let lines = outcomes.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
    FileHandle.standardError.write(Data(("outcomes:\n" + lines.joined(separator: "\n") + "\n").utf8))
}

func check<T>(_ step: String, _ work: () async throws(ServiceError) -> T) async -> T? {
    do {
        let value = try await work()
        outcomes["\(step) ok", default: 0] += 1
        return value
    } catch {
        if error.code == .internalError { fatalError("an input reached an internal error: \(error.message) \(String(describing: error.underlying))") }
        outcomes["\(step) \(error.code)", default: 0] += 1
        return nil
    }
}

func transaction(_ values: inout FuzzValues, catalog: Catalog, original: String, now base: Int64) -> String {
    let products = catalog.products.map(\.id.rawValue)
    return values.object([
        ("transactionId", values.jsonString([original + "-" + String(values.byte()), original])),
        ("originalTransactionId", values.jsonString([original])),
        ("webOrderLineItemId", values.jsonString([original + "-w"])),
        ("bundleId", values.jsonString([catalog.bundleID?.rawValue ?? ""], invalid: ["com.other", ""])),
        ("productId", values.jsonString(products)),
        ("subscriptionGroupIdentifier", values.jsonString(["G1", "21482456"])),
        ("purchaseDate", values.milliseconds(near: base)),
        ("originalPurchaseDate", values.milliseconds(near: base)),
        ("expiresDate", values.milliseconds(near: base + 30 * 86_400_000)),
        ("quantity", values.jsonInteger(around: 1)),
        ("type", values.jsonString(["Auto-Renewable Subscription", "Non-Consumable", "Consumable", "Non-Renewing Subscription"], invalid: ["Subscription"])),
        ("appAccountToken", values.jsonString(["7E3FB20B-4CDB-47CC-936D-99D65F608138"], invalid: ["not-a-uuid"])),
        ("inAppOwnershipType", values.jsonString(["PURCHASED", "FAMILY_SHARED"], invalid: ["SHARED"])),
        ("signedDate", values.milliseconds(near: base)),
        ("revocationReason", values.jsonInteger(around: 0)),
        ("revocationDate", values.milliseconds(near: base + 10 * 86_400_000)),
        ("revocationType", values.jsonString(["REFUND_FULL", "REFUND_PRORATED", "FAMILY_REVOKE"], invalid: ["REFUND"])),
        ("revocationPercentage", values.jsonInteger(around: 50_000)),
        ("isUpgraded", values.choice(["true", "false"], invalid: ["1", "null", "\"true\""])),
        ("offerType", values.jsonInteger(around: 1)),
        ("offerIdentifier", values.jsonString(["promo", "winback"])),
        ("offerDiscountType", values.jsonString(["FREE_TRIAL", "PAY_AS_YOU_GO", "PAY_UP_FRONT", "ONE_TIME"], invalid: ["FREE"])),
        ("offerPeriod", values.jsonString(["P1W", "P1M", "P3M"], invalid: ["PX", "P0D", "P99999999Y"])),
        ("environment", values.jsonString(["Sandbox"], invalid: ["Production", "Xcode", "sandbox"])),
        ("storefront", values.jsonString(["USA", "FRA"])),
        ("storefrontId", values.jsonString(["143441"])),
        ("transactionReason", values.jsonString(["PURCHASE", "RENEWAL"])),
        ("currency", values.jsonString(["USD", "EUR", "JPY"], invalid: ["", "usd", "XXXX"])),
        ("price", values.jsonInteger(around: 9_990)),
        ("appTransactionId", values.jsonString(["704"])),
    ])
}

func renewal(_ values: inout FuzzValues, catalog: Catalog, original: String, now base: Int64) -> String {
    let products = catalog.products.map(\.id.rawValue)
    return values.object([
        ("expirationIntent", values.jsonInteger(around: 1)),
        ("originalTransactionId", values.jsonString([original])),
        ("autoRenewProductId", values.jsonString(products)),
        ("productId", values.jsonString(products)),
        ("autoRenewStatus", values.jsonInteger(around: 1)),
        ("isInBillingRetryPeriod", values.choice(["true", "false"], invalid: ["0", "null"])),
        ("priceIncreaseStatus", values.jsonInteger(around: 0)),
        ("gracePeriodExpiresDate", values.milliseconds(near: base + 40 * 86_400_000)),
        ("offerType", values.jsonInteger(around: 2)),
        ("signedDate", values.milliseconds(near: base)),
        ("environment", values.jsonString(["Sandbox"])),
        ("recentSubscriptionStartDate", values.milliseconds(near: base)),
        ("renewalDate", values.milliseconds(near: base + 30 * 86_400_000)),
        ("renewalPrice", values.jsonInteger(around: 9_990)),
        ("currency", values.jsonString(["USD", "EUR"])),
        ("eligibleWinBackOfferIds", values.choice(["[\"w1\"]", "[]"], invalid: ["null", "[1]", "{}"])),
    ])
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let pointer else { return 0 }
    let data = Data(bytes: pointer, count: count)
    return runBlocking {
        var values = FuzzValues(data)
        let services = await pipeline.services()
        let service = services[values.index(services.count)]
        let catalog = service.catalog
        let signer = pipeline.authority.signer
        let users = ["u1", "u2", "$anon:6f1c2a8e-4b1d-4c55-9d0e-3a7f7c1e2b90"]
        let features = catalog.features + catalog.limits + catalog.quotas.map(\.name) + ["unknown"]
        let entitlements = catalog.entitlements.map(\.id) + ["unknown"]
        var touched: Set<String> = []
        // Each input starts on its own day of the catalog's first year.
        pipeline.clock = Date(timeIntervalSince1970: TimeInterval(base / 1000) + Double(values.index(400)) * 86_400)
        let steps = 1 + Int(values.byte() % 12)
        for _ in 0..<steps where !values.isExhausted {
            // The clock moves by fuzzed days, now and then to an edge.
            let days = Double(Int8(bitPattern: values.byte()) % 16)
            pipeline.clock = values.mutates() && values.byte() % 8 == 0
                ? Date(timeIntervalSince1970: Double(values.pick([0, -62_167_219_200, 7_258_118_399, 253_402_300_799])))
                : pipeline.clock.addingTimeInterval(days * 86_400)
            let user = values.pick(users)
            let nowMilliseconds = Int64(pipeline.clock.timeIntervalSince1970 * 1000)
            let original = "o\(values.byte() % 4)"
            switch values.byte() % 10 {
            case 0, 1, 2:
                guard let signed = try? signer.sign(payload: Data(transaction(&values, catalog: catalog, original: original, now: nowMilliseconds).utf8)) else { continue }
                _ = await check("submit") { () async throws(ServiceError) in try await service.ingestion.submitTransaction(appUserID: AppUserID(user), signedTransaction: signed) }
                touched.insert(user)
            case 3, 4, 5:
                let signedTransaction = values.mutates() && values.bool() ? nil : try? signer.sign(payload: Data(transaction(&values, catalog: catalog, original: original, now: nowMilliseconds).utf8))
                let signedRenewal = values.byte() % 4 != 0 ? try? signer.sign(payload: Data(renewal(&values, catalog: catalog, original: original, now: nowMilliseconds).utf8)) : nil
                let notification = values.object([
                    ("notificationType", values.jsonString([
                        "SUBSCRIBED", "DID_RENEW", "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "REFUND", "REFUND_REVERSED", "REVOKE",
                        "DID_CHANGE_RENEWAL_STATUS", "DID_CHANGE_RENEWAL_PREF", "OFFER_REDEEMED", "PRICE_INCREASE", "RENEWAL_EXTENDED",
                        "CONSUMPTION_REQUEST", "ONE_TIME_CHARGE", "TEST",
                    ], invalid: ["FUTURE_TYPE", ""])),
                    ("subtype", values.jsonString(["INITIAL_BUY", "RESUBSCRIBE", "UPGRADE", "DOWNGRADE", "AUTO_RENEW_DISABLED", "VOLUNTARY", "BILLING_RETRY", "GRACE_PERIOD"])),
                    ("notificationUUID", values.jsonString([UUID().uuidString, "00000000-0000-4000-8000-000000000001"])),
                    ("data", values.object([
                        ("environment", values.jsonString(["Sandbox"])),
                        ("appAppleId", values.jsonInteger(around: 1234)),
                        ("bundleId", values.jsonString([catalog.bundleID?.rawValue ?? ""])),
                        ("signedTransactionInfo", signedTransaction.map(FuzzValues.json) ?? "null"),
                        ("signedRenewalInfo", signedRenewal.map(FuzzValues.json) ?? "null"),
                        ("status", values.jsonInteger(around: 1)),
                    ])),
                    ("version", "\"2.0\""),
                    ("signedDate", values.milliseconds(near: nowMilliseconds)),
                ])
                guard let signed = try? signer.sign(payload: Data(notification.utf8)) else { continue }
                _ = await check("notification") { () async throws(ServiceError) in try await service.ingestion.ingestNotification(signedPayload: signed) }
                touched.formUnion(users)
            case 6:
                _ = await check("trial") { () async throws(ServiceError) in try await service.subscribers.startTrial(appUserID: AppUserID(user)) }
                touched.insert(user)
            case 7:
                let feature = values.pick(features)
                let amount = Int(truncatingIfNeeded: values.integer(around: 1))
                _ = await check("usage") { () async throws(ServiceError) in
                    try await service.subscribers.recordUsage(appUserID: AppUserID(user), feature: feature, amount: amount, idempotencyKey: "k\(values.byte())")
                }
                touched.insert(user)
            case 8:
                let start = Date(timeIntervalSince1970: Double(values.integer(around: base / 1000)))
                let end = Date(timeIntervalSince1970: Double(values.integer(around: base / 1000 + 86_400)))
                let entitlement = values.pick(entitlements)
                switch values.byte() % 3 {
                case 0:
                    _ = await check("grant") { () async throws(ServiceError) in
                        try await service.admin.grant(appUserID: AppUserID(user), entitlementID: entitlement, startsAt: values.bool() ? start : nil, endsAt: end, reason: "fuzz")
                    }
                case 1: _ = await check("override") { () async throws(ServiceError) in try await service.admin.addOverride(appUserID: AppUserID(user), endsAt: end, reason: nil) }
                default: _ = await check("openAccess") { () async throws(ServiceError) in try await service.admin.setOpenAccess(endsAt: end, entitlementIDs: [entitlement], reason: nil) }
                }
                touched.insert(user)
            default:
                let feature = values.pick(features)
                let usage = Int(truncatingIfNeeded: values.integer(around: 1))
                _ = await check("access") { () async throws(ServiceError) in try await service.subscribers.access(appUserID: AppUserID(user), feature: feature, usage: usage) }
            }
        }
        // Every subscriber touched reads back; its projection is the fold of its events.
        for user in touched.sorted() {
            _ = await check("subscriber") { () async throws(ServiceError) in try await service.subscribers.subscriber(appUserID: AppUserID(user), accessPeriods: true) }
            _ = await check("timeline") { () async throws(ServiceError) in try await service.analytics.stateTimeline(appUserID: AppUserID(user)) }
            guard let store = pipeline.store?.forApp(service.bundleID), let events = try? await store.events(appUserID: AppUserID(user)) else { continue }
            let stored = try? await store.projection(appUserID: AppUserID(user))
            if let stored, stored != SubscriberFacts.fold(appUserID: AppUserID(user), events: events) {
                if ProcessInfo.processInfo.environment["FUZZ_DEBUG"] != nil {
                    let folded = SubscriberFacts.fold(appUserID: AppUserID(user), events: events)
                    print("purchases stored \(stored.purchases.keys.sorted()) folded \(folded.purchases.keys.sorted())")
                    for key in Set(stored.purchases.keys).union(folded.purchases.keys).sorted() where stored.purchases[key] != folded.purchases[key] {
                        print("purchase \(key) differs:\n stored \(String(describing: stored.purchases[key]))\n folded \(String(describing: folded.purchases[key]))")
                    }
                    print("trial", stored.appTrialStartedAt == folded.appTrialStartedAt, "grants", stored.grants == folded.grants, "overrides",
                          stored.overrides == folded.overrides, "usage", stored.usage == folded.usage, "households", stored.households == folded.households,
                          "attributes", stored.attributeValues == folded.attributeValues, "pending", stored.pendingPurchases == folded.pendingPurchases)
                    for event in events { print(event.source, event.idempotencyKey, event.signedDate.map { "\($0)" } ?? "-", event.receivedAt) }
                    fflush(nil)
                }
                fatalError("the projection of \(user) is not the fold of its \(events.count) events")
            }
        }
        _ = await check("analytics") { () async throws(ServiceError) in try await service.analytics.analytics(from: nil, to: nil) }
        _ = await check("webhooks") { () async throws(ServiceError) in try await service.webhooks.publishWebhooks(holder: "fuzz") }
        return 0
    }
}

runFuzzer(fuzz)
