import EntitleCore
@testable import EntitleServer
import EntitleWire
import Foundation
import Testing

/// The subscriber answer's writer against the API's `JSONEncoder`, byte for byte.
@Suite("Subscriber response writer")
struct SubscriberResponseWriterTests {
    static let strings = [
        "", "a", "premium", "com.example.family.yearly", "a/b", "quote\"d", "back\\slash", "tab\there", "line\nbreak",
        "\u{1}\u{1F}", "naïve café", "日本語", "emoji 👨‍👩‍👧", "\u{7F}", "\u{2028}", "</script>",
    ]

    /// Instants from 1583 to 9999, with fractions of a second (the encoder drops them), and the edges.
    static let instants: [Double] = [
        0, -0.5, 1.999, 1_767_225_600, 1_767_225_600.999, 951_782_400, -12_212_553_600, 253_402_300_799.999, 4_102_444_800.4999,
        -1, -86_400, -86_401, 1_000_000_000.25,
    ]

    static func response(_ generator: inout SeededGenerator) -> SubscriberResponse {
        func string() -> String { strings.randomElement(using: &generator)! }
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &generator) ? value() : nil }
        func date() -> Date {
            Bool.random(using: &generator)
                ? Date(timeIntervalSince1970: instants.randomElement(using: &generator)!)
                : Date(timeIntervalSince1970: Double.random(in: -12_212_553_600..<253_402_300_800, using: &generator))
        }
        func count(_ most: Int) -> Int { Int.random(in: 0...most, using: &generator) }
        func subscription() -> SubscriptionInfo {
            var info = SubscriptionInfo(
                originalTransactionID: string(), productID: string(), kind: PurchaseKind(rawValue: string()), state: SubscriptionStateValue(rawValue: string()),
                appleStatus: maybe(Int.random(in: -5...5, using: &generator)), willRenew: Bool.random(using: &generator),
                renewsToProductID: maybe(string()), purchasedAt: maybe(date()), expiresAt: maybe(date()), gracePeriodExpiresAt: maybe(date()),
                periodType: string(), expirationReason: maybe(string()), revocationCause: maybe(string()), isFamilyShared: Bool.random(using: &generator),
                environment: maybe(string()), renewalChange: maybe(string()),
                commitment: maybe(CommitmentInfo(
                    billingPeriod: Int.random(in: 1...12, using: &generator), totalBillingPeriods: 12, endsAt: date(),
                    price: maybe(Int64.random(in: 0...Int64.max, using: &generator)), renews: Bool.random(using: &generator))),
                redundant: maybe(true))
            info.renewalOffer = maybe(RenewalOfferInfo(periodType: string(), offerID: maybe(string())))
            info.latestTransactionID = maybe(string())
            info.daysLeft = maybe(Int.random(in: 0...Int.max, using: &generator))
            return info
        }
        let entitlements = (0..<count(3)).map { _ in
            EntitlementInfo(
                id: string(), isActive: Bool.random(using: &generator), state: EntitlementStateValue(rawValue: string()),
                source: EntitlementSourceKind(rawValue: string()), productID: maybe(string()), expiresAt: maybe(date()),
                willRenew: Bool.random(using: &generator), periodType: maybe(string()), renewsToProductID: maybe(string()),
                isFamilyShared: Bool.random(using: &generator),
                limits: Dictionary((0..<count(3)).map { _ in (string(), maybe(Int.random(in: Int.min...Int.max, using: &generator))) }, uniquingKeysWith: { a, _ in a }))
        }
        var response = SubscriberResponse(
            appUserID: string(), serverTime: date(), entitlements: entitlements, subscriptions: (0..<count(3)).map { _ in subscription() },
            purchases: (0..<count(2)).map { _ in subscription() },
            pendingPurchases: (0..<count(2)).map { _ in PendingPurchaseInfo(productID: string(), requestedAt: date(), expiresAt: date()) },
            appTrial: AppTrialInfo(phase: AppTrialPhaseValue(rawValue: string()), startedAt: maybe(date()), endsAt: maybe(date()), lockoutAt: maybe(date())),
            quotas: (0..<count(2)).map { _ in
                QuotaInfo(
                    feature: string(), window: string(), limit: maybe(Int.random(in: 0...100, using: &generator)), used: Int.random(in: 0...100, using: &generator),
                    remaining: maybe(Int.random(in: 0...100, using: &generator)), resetsAt: maybe(date()))
            },
            lapse: maybe(SubscriberResponse.Lapse(reason: AccessReasonCode(rawValue: string()), paywall: Paywall(rawValue: string()))),
            appAccountToken: maybe(UUID()),
            attributes: Dictionary((0..<count(3)).map { _ in (string(), string()) }, uniquingKeysWith: { a, _ in a }),
            items: (0..<count(3)).map { _ in
                ItemInfo(limit: string(), id: string(), name: maybe(string()), addedAt: date(), isPaused: Bool.random(using: &generator))
            })
        response.consentRescindedAt = maybe(date())
        response.appTrial.daysLeft = maybe(Int.random(in: 0...40, using: &generator))
        response.expiryGrace = maybe(GraceInfo(startedAt: date(), lockoutAt: date(), daysLeft: Int.random(in: 0...7, using: &generator)))
        response.lastVerifiedAt = maybe(date())
        response.provisionalGrant = maybe(ProvisionalGrantInfo(
            hours: Int.random(in: 1...72, using: &generator),
            entitlements: Dictionary((0..<count(3)).map { _ in (string(), (0..<count(2)).map { _ in string() }) }, uniquingKeysWith: { a, _ in a })))
        response.reminders = (0..<count(3)).map { _ in
            ReminderInfo(
                kind: string(), dueAt: date(), endsAt: date(), daysLeft: Int.random(in: 0...Int.max, using: &generator),
                originalTransactionID: maybe(string()), productID: maybe(string()), willRenew: maybe(Bool.random(using: &generator)))
        }
        return response
    }

    @Test("every answer is written exactly as the API's JSONEncoder writes it", arguments: 0..<8)
    func equalsEncoder(seed: UInt64) throws {
        var generator = SeededGenerator(seed: seed)
        for _ in 0..<250 {
            let response = Self.response(&generator)
            let expected = String(decoding: try WireJSON.encoder.encode(response), as: UTF8.self)
            let written = try #require(SubscriberResponseWriter.json(response))
            #expect(written == expected)
        }
    }

    @Test("answers with access periods, or a date before 1583 or after 9999, are left to the encoder")
    func leftToEncoder() throws {
        var generator = SeededGenerator(seed: 99)
        var response = Self.response(&generator)
        response.accessPeriods = []
        #expect(SubscriberResponseWriter.json(response) != nil)
        var periods = response
        periods.accessPeriods = [AccessPeriod(from: Date(timeIntervalSince1970: 0), until: nil, decisions: [:])]
        #expect(SubscriberResponseWriter.json(periods) == nil)
        for instant in [-12_212_553_600.5, -62_135_596_800, 253_402_300_800] {
            var dated = response
            dated.serverTime = Date(timeIntervalSince1970: instant)
            #expect(SubscriberResponseWriter.json(dated) == nil)
            dated = response
            dated.quotas = [QuotaInfo(feature: "f", window: "month", limit: 2, used: 0, remaining: 2, resetsAt: Date(timeIntervalSince1970: instant))]
            #expect(SubscriberResponseWriter.json(dated) == nil)
        }
    }
}
