import AppStoreModels
import Crypto
import EntitleCore
import EntitleTestSupport
import Foundation

/// Subscribers of three apps with every event as the server stores it, each App Store event with its
/// signed payload (a notification's own JWS carrying its signed transaction and renewal info, each
/// with the whole x5c chain, as Apple sends them), signed by a test PKI. Subscriber `n` is the same
/// for every run with the same seed, whichever worker makes it.
///
/// The mix, per subscriber, over 2025:
/// - the app: ScreenTime Rewards 50% (an app-managed trial from first launch, 1–3 child devices
///   registered, individual or family monthly plans), Epilogue 30% (free conversations counted against
///   the quota, monthly or annual Plus), PantryPal 20% (monthly or annual Premium, households);
/// - 70% buy; half of them through a 7-day introductory free trial, of which 60% convert;
/// - monthly plans renew 1–12 times, annual ones once or not at all, then auto-renew is turned off;
///   1% of paid periods are refunded; 10% of buyers on a family or household plan bring one or two
///   members, who join the household.
public struct SignedPopulation: Sendable {
    public struct App: Sendable {
        public let bundleID: String
        public let monthly: [String]
        public let annual: String?
        public let appTrial: Bool
        public let devices: Bool
        public let quota: String?
        public let households: Bool
    }

    public static let apps = [
        App(bundleID: "com.screentimerewards", monthly: ["com.screentimerewards.individual.monthly", "com.screentimerewards.family.monthly"],
            annual: nil, appTrial: true, devices: true, quota: nil, households: true),
        App(bundleID: "com.epilogue.app", monthly: ["com.epilogue.plus.monthly"], annual: "com.epilogue.plus.annual",
            appTrial: false, devices: false, quota: "conversations", households: false),
        App(bundleID: "com.pantrypal.app", monthly: ["com.pantrypal.premium.monthly"], annual: "com.pantrypal.premium.annual",
            appTrial: false, devices: false, quota: nil, households: true),
    ]
    public static let start = ReferenceTime.instant("2025-01-01T00:00:00Z")

    /// One subscriber's events, for one app, in the order the server would receive them.
    public struct Subscriber: Sendable {
        public let app: App
        public let events: [LedgerEvent]
        public var signedBytes: Int { events.reduce(0) { $0 + ($1.rawSignedPayload?.utf8.count ?? 0) } }
    }

    public let pki: TestPKI
    public let seed: UInt64
    /// The header every payload is signed under (the chain's, as Apple's carry it), made once.
    private let header: String

    public init(seed: UInt64 = 42) throws {
        self.seed = seed
        self.pki = try TestPKI(reference: Self.start)
        let header = try JSONSerialization.data(withJSONObject: ["alg": "ES256", "x5c": pki.x5c], options: [.sortedKeys])
        self.header = Base64URL.encode(header)
    }

    /// A compact JWS of `payload` signed by the PKI's leaf: what `TestPKI.sign` makes, with the header
    /// made once.
    public func sign(payload: Data) -> String {
        let input = header + "." + Base64URL.encode(payload)
        guard let signature = try? pki.leafKey.signature(for: Data(input.utf8)) else { return input + "." }
        return input + "." + Base64URL.encode(signature.rawRepresentation)
    }

    public func sign<Payload: Encodable>(_ payload: Payload) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return sign(payload: (try? encoder.encode(payload)) ?? Data())
    }

    /// The app of subscriber `index`.
    public static func app(of index: Int, seed: UInt64) -> App {
        var generator = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ UInt64(index))
        let draw = Double.random(in: 0..<1, using: &generator)
        return apps[draw < 0.5 ? 0 : draw < 0.8 ? 1 : 2]
    }

    /// Subscriber `index` and, when they share a plan, the household members they bring (numbered
    /// from `index`: `user-<index>-m1`…).
    public func subscribers(_ index: Int) -> [Subscriber] { subscribers(index, signed: true) }

    /// Subscriber `index`'s purchase, if they made one: its original transaction ID and product, with the
    /// app (drawn as ``subscribers(_:)`` draws it, without signing anything).
    public func purchase(of index: Int) -> (app: App, original: String, productID: String)? {
        guard let subscriber = subscribers(index, signed: false).first else { return nil }
        for event in subscriber.events {
            guard let original = event.originalTransactionID else { continue }
            switch event.payload {
            case .transaction(let transaction), .notification(_, _, let transaction?, _):
                if let product = transaction.productId { return (subscriber.app, original.rawValue, product) }
            default: continue
            }
        }
        return nil
    }

    private func subscribers(_ index: Int, signed: Bool) -> [Subscriber] {
        var generator = SeededGenerator(seed: seed &* 0x9E37_79B9 &+ UInt64(index))
        _ = Double.random(in: 0..<1, using: &generator)  // the app's draw (app(of:seed:))
        let app = Self.app(of: index, seed: seed)
        let apple = AppleFacts(bundleID: app.bundleID)
        let user = AppUserID("user-\(index)")
        var ids = index &* 64
        func nextID() -> UUID {
            ids += 1
            return LedgerEvents.id(ids)
        }
        let launched = Self.start.addingTimeInterval(Double.random(in: 0..<(330 * 86_400), using: &generator))
        var events: [LedgerEvent] = []
        if app.appTrial {
            events.append(LedgerEvent(
                id: nextID(), appUserID: user, source: .appTrialStart, idempotencyKey: "trial:\(user)", signedDate: launched, receivedAt: launched,
                payload: .appTrialStarted(at: launched)))
        }
        if app.devices {
            for device in 0..<Int.random(in: 1...3, using: &generator) {
                let at = launched.addingTimeInterval(Double(device) * 3_600)
                events.append(item(nextID(), user, at, .item(ItemChange(limit: "childDevices", itemID: "device-\(device)", action: .register, name: "Child \(device + 1)", at: at))))
            }
        }
        if let quota = app.quota {
            for use in 0..<Int.random(in: 0...4, using: &generator) {
                let at = launched.addingTimeInterval(Double(use) * 5 * 86_400 + 60)
                events.append(LedgerEvent(
                    id: nextID(), appUserID: user, source: .usage, idempotencyKey: "usage:\(user):\(use)", signedDate: at, receivedAt: at,
                    payload: .usage(UsageRecord(feature: quota, amount: 1, at: at, idempotencyKey: "\(user):\(use)"))))
            }
        }
        guard Double.random(in: 0..<1, using: &generator) < 0.7 else { return [Subscriber(app: app, events: events)] }

        let annual = app.annual.map { product in Double.random(in: 0..<1, using: &generator) < 0.3 ? product : nil } ?? nil
        let productID = annual ?? app.monthly[Int.random(in: 0..<app.monthly.count, using: &generator)]
        let period = annual == nil ? ISODuration(months: 1) : ISODuration(years: 1)
        let price: Int64 = annual != nil ? 49_990 : productID.contains("family") ? 12_990 : 7_990
        let original = "\(200_000_000_000 + index)"
        var purchase = launched.addingTimeInterval(Double.random(in: 60..<(20 * 86_400), using: &generator))
        if Bool.random(using: &generator) {
            let trialEnd = purchase.addingTimeInterval(7 * 86_400)
            let trial = apple.subscription(
                productID, original: original, id: "\(original)0", purchase: purchase, expires: trialEnd, offer: .introductoryOffer, discount: .freeTrial)
            events.append(submitted(signed, nextID(), user, trial))
            events.append(notification(signed, app, nextID(), .subscribed, .initialBuy, trial, apple.renewal(original: original, product: productID, signed: purchase)))
            purchase = trialEnd
            guard Double.random(in: 0..<1, using: &generator) < 0.6 else {
                events.append(notification(signed, app, nextID(), .expired, .voluntary, trial, apple.renewal(
                    original: original, product: productID, autoRenew: .off, signed: trialEnd, expirationIntent: .customerCancelled)))
                return [Subscriber(app: app, events: events)]
            }
        }
        let periods = annual == nil ? Int.random(in: 1...12, using: &generator) : Int.random(in: 1...2, using: &generator)
        var members: [Subscriber] = []
        for number in 0..<periods {
            let expires = period.added(to: purchase)
            let transaction = apple.subscription(
                productID, original: original, id: "\(original)\(number + 1)", purchase: purchase, expires: expires, price: price,
                reason: number == 0 ? .purchase : .renewal)
            let renewal = apple.renewal(original: original, product: productID, signed: purchase)
            if number == 0 && events.allSatisfy({ $0.originalTransactionID == nil }) {
                events.append(submitted(signed, nextID(), user, transaction))
                events.append(notification(signed, app, nextID(), .subscribed, .initialBuy, transaction, renewal))
            } else {
                events.append(notification(signed, app, nextID(), .didRenew, nil, transaction, renewal))
            }
            if number == 0, app.households, productID.contains("family") || annual != nil, Double.random(in: 0..<1, using: &generator) < 0.1 {
                for member in 1...Int.random(in: 1...2, using: &generator) {
                    let memberID = AppUserID("\(user)-m\(member)")
                    let at = purchase.addingTimeInterval(Double(member) * 86_400)
                    members.append(Subscriber(app: app, events: [
                        LedgerEvent(id: nextID(), appUserID: memberID, source: .admin, idempotencyKey: "household:\(memberID)", signedDate: at, receivedAt: at,
                                    payload: .householdJoined(householdID: user, at: at))
                    ]))
                }
            }
            if Double.random(in: 0..<1, using: &generator) < 0.01 {
                var refunded = transaction
                refunded.revocationDate = purchase.addingTimeInterval(3 * 86_400)
                refunded.revocationReason = .other
                refunded.signedDate = refunded.revocationDate
                events.append(notification(signed, app, nextID(), .refund, nil, refunded, nil))
                return [Subscriber(app: app, events: events)] + members
            }
            purchase = expires
            if purchase > Self.start.addingTimeInterval(365 * 86_400) { break }
        }
        let off = purchase.addingTimeInterval(-86_400)
        events.append(notification(signed, app, nextID(), .didChangeRenewalStatus, .autoRenewDisabled, nil, apple.renewal(
            original: original, product: productID, autoRenew: .off, signed: off)))
        return [Subscriber(app: app, events: events)] + members
    }

    private func item(_ id: UUID, _ user: AppUserID, _ at: Date, _ payload: LedgerEventPayload) -> LedgerEvent {
        LedgerEvent(id: id, appUserID: user, source: .items, idempotencyKey: "item:\(id.uuidString)", signedDate: at, receivedAt: at, payload: payload)
    }

    /// The app's submission of a purchase: its signed transaction.
    private func submitted(_ signed: Bool, _ id: UUID, _ user: AppUserID, _ transaction: JWSTransactionDecodedPayload) -> LedgerEvent {
        LedgerEvent(
            id: id, appUserID: user, source: .appTransaction, idempotencyKey: "transaction:\(transaction.transactionId ?? "")",
            transactionID: transaction.transactionId, originalTransactionID: transaction.originalTransactionId.map { OriginalTransactionID($0) },
            signedDate: transaction.signedDate, receivedAt: transaction.signedDate ?? Self.start, payload: .transaction(transaction),
            rawSignedPayload: signed ? sign(transaction) : nil)
    }

    /// A notification as Apple sends it: no subscriber named (the purchase's link finds them), its
    /// signed transaction and renewal info inside its own signed payload.
    private func notification(
        _ sign: Bool, _ app: App, _ id: UUID, _ type: NotificationTypeV2, _ subtype: Subtype?, _ transaction: JWSTransactionDecodedPayload?,
        _ renewal: JWSRenewalInfoDecodedPayload?
    ) -> LedgerEvent {
        let signed = [transaction?.signedDate, renewal?.signedDate].compactMap { $0 }.max() ?? Self.start
        let uuid = id.uuidString.lowercased()
        var payload: String?
        if sign {
            // Apple's notification JSON, written out: every value here needs no escape.
            var data = #"{"bundleId":"\#(app.bundleID)","environment":"Sandbox""#
            if let renewal { data += #","signedRenewalInfo":"\#(self.sign(renewal))""# }
            if let transaction { data += #","signedTransactionInfo":"\#(self.sign(transaction))""# }
            data += #","status":1}"#
            var body = #"{"data":\#(data),"notificationType":"\#(type.rawValue)","notificationUUID":"\#(uuid)","signedDate":\#(Int64(signed.timeIntervalSince1970 * 1000))"#
            if let subtype { body += #","subtype":"\#(subtype.rawValue)""# }
            body += #","version":"2.0"}"#
            payload = self.sign(payload: Data(body.utf8))
        }
        return LedgerEvent(
            id: id, appUserID: nil, source: .appStoreNotification, idempotencyKey: "notification:\(uuid)", notificationUUID: uuid,
            transactionID: transaction?.transactionId, originalTransactionID: transaction?.purchaseChain ?? renewal?.purchaseChain,
            signedDate: signed, receivedAt: signed, payload: .notification(type: type, subtype: subtype, transaction: transaction, renewalInfo: renewal),
            rawSignedPayload: payload)
    }
}
