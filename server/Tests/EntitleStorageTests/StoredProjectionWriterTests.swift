import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

/// Projections written without `JSONEncoder`: byte for byte what the ledger's encoder writes, or left to
/// it.
@Suite("StoredProjectionWriter")
struct StoredProjectionWriterTests {
    static let start = ReferenceTime.start

    static func encoded(_ facts: SubscriberFacts) throws -> String {
        String(decoding: try StoredJSON.encoder.encode(facts), as: UTF8.self)
    }

    /// Keys that sort differently by their UTF-8 bytes and by `String`'s order, and need escaping.
    static let awkwardKeys = ["z", "é", "a\u{301}", "E", "10", "9", "😀", "a/b", "q\"", ""]

    /// Facts with every member set, each collection holding several entries, but those left to `JSONEncoder`.
    static let full: SubscriberFacts = {
        var facts = SubscriberFacts(appUserID: "user/\"1\"", appTrialStartedAt: start.addingTimeInterval(-0.0005), timeZone: TimeZone(identifier: "Europe/Paris")!)
        var chain = SubscriptionFacts(originalTransactionID: "1000")
        var renewal = FullPayloads.transaction
        renewal.transactionId = "1002"
        renewal.originalTransactionId = "1000"
        var upgraded = renewal
        upgraded.transactionId = "1003"
        // An introductory offer earlier in the chain: the renewals replace it, its start stays.
        var trial = renewal
        trial.transactionId = "1000"
        trial.offerType = .introductoryOffer
        trial.purchaseDate = renewal.purchaseDate.map { $0.addingTimeInterval(-7 * 86_400 - 0.25) }
        chain.record(trial)
        chain.record(renewal)
        chain.record(upgraded)
        chain.record(FullPayloads.renewalInfo)
        chain.recordRefundReversal(transactionID: "1002", signedDate: start)
        chain.recordClaim(by: "bob", at: start)
        chain.recordClaim(by: "é\"/\u{1}", at: start.addingTimeInterval(0.25))
        chain.recordRefundReversal(transactionID: "0999", signedDate: start.addingTimeInterval(1.5))
        var other = SubscriptionFacts(originalTransactionID: "é")
        other.record(JWSTransactionDecodedPayload(originalTransactionId: "é", purchaseDate: start, transactionId: "é"))
        facts.purchases = ["1000": chain, "é": other, "a\u{301}": SubscriptionFacts(originalTransactionID: "a\u{301}")]
        facts.recordConsentRescinded(at: start.addingTimeInterval(0.125))
        // Two registries: a device registered, named, removed and registered again; one removed.
        for change in [
            ItemChange(limit: "childDevices", itemID: "ipad/1", action: .register, name: "Mia's \"iPad\"", at: start),
            ItemChange(limit: "childDevices", itemID: "ipad/1", action: .remove, at: start.addingTimeInterval(1.5)),
            ItemChange(limit: "childDevices", itemID: "ipad/1", action: .register, at: start.addingTimeInterval(2.25)),
            ItemChange(limit: "childDevices", itemID: "ipad/1", action: .register, at: start.addingTimeInterval(3)),
            ItemChange(limit: "childDevices", itemID: "é", action: .register, at: start),
            ItemChange(limit: "profiles", itemID: "p", action: .register, at: start),
            ItemChange(limit: "profiles", itemID: "p", action: .remove, at: start.addingTimeInterval(60)),
        ] { facts.recordItemChange(change) }
        facts.usage = [
            UsageRecord(feature: "conversations", amount: 2, at: start, idempotencyKey: "k/1"),
            UsageRecord(feature: "conversations", amount: -1, at: start.addingTimeInterval(0.25)),
        ]
        for (index, key) in awkwardKeys.enumerated() {
            let at = start.addingTimeInterval(Double(index) / 3)
            facts.grantRevocations[key] = at
            facts.overrideRemovals[key] = at
            facts.households[AppUserID(key)] = SubscriberFacts.Membership(joinedAt: at, leftAt: index.isMultiple(of: 2) ? nil : at.addingTimeInterval(86_400))
            facts.recordAttribute(key, index.isMultiple(of: 3) ? nil : "value \(key)\n", at: at)
        }
        return facts
    }()

    static let samples: [SubscriberFacts] = {
        var samples = [SubscriberFacts(appUserID: "u"), full]
        for zone in ["UTC", "GMT", "America/New_York"] {
            var facts = full
            facts.timeZone = TimeZone(identifier: zone)!
            samples.append(facts)
        }
        var offset = full
        offset.timeZone = TimeZone(secondsFromGMT: 3_600)!
        samples.append(offset)
        // What folding the stored-event tests' events gives.
        var folded = SubscriberFacts(appUserID: "u1")
        for event in StoredEventReaderTests.events { folded.apply(event) }
        samples.append(folded)
        return samples
    }()

    @Test("the full facts set every member, and every member of what they hold, but those left to JSONEncoder")
    func fullIsFull() throws {
        #expect(unsetMembers(of: Self.full) == ["appTrialExtensions", "erasedAt", "experiments", "grants", "overrides", "pendingPurchases", "purchaseClaims"])
        #expect(unsetMembers(of: try #require(Self.full.items["childDevices"]?["ipad/1"])) == [])
        #expect(unsetMembers(of: try #require(Self.full.purchases["1000"])) == [])
        #expect(unsetMembers(of: try #require(Self.full.usage.first)) == [])
        #expect(unsetMembers(of: try #require(Self.full.households.values.first { $0.leftAt != nil })) == [])
        #expect(unsetMembers(of: try #require(Self.full.attributeValues.values.first { $0.value != nil })) == [])
    }

    @Test("projections are written as JSONEncoder writes them", arguments: samples.indices)
    func sameAsJSONEncoder(index: Int) throws {
        let facts = Self.samples[index]
        let written = try #require(StoredProjectionWriter.json(facts))
        #expect(written == (try Self.encoded(facts)))
    }

    @Test("facts with grants, overrides, Ask to Buy requests, app trial extensions, experiment enrolments or a Codable-only payload member are left to JSONEncoder")
    func leftToJSONEncoder() {
        var granted = Self.full
        granted.grants = [EntitlementGrant(id: "g", entitlementID: "premium", startsAt: Self.start, endsAt: Self.start.addingTimeInterval(60), reason: "r")]
        var overridden = Self.full
        overridden.overrides = [AccessOverride(id: "o", startsAt: Self.start, reason: "r")]
        var asked = Self.full
        asked.recordPurchaseRequest(productID: "p", at: Self.start)
        var committed = Self.full
        var transaction = JWSTransactionDecodedPayload(originalTransactionId: "c", purchaseDate: Self.start, transactionId: "c")
        transaction.commitmentInfo = TransactionCommitmentInfo(billingPeriodNumber: 1)
        var chain = SubscriptionFacts(originalTransactionID: "c")
        chain.record(transaction)
        committed.purchases["c"] = chain
        var enrolled = Self.full
        enrolled.recordEnrolment(ExperimentEnrolment(experimentID: "e", variantID: "b", offeringID: "default", at: Self.start, revenueWindowDays: 30))
        var extended = Self.full
        extended.appTrialExtensions["x"] = AppTrialExtension(id: "x", days: 7, reason: "support", at: Self.start)
        for facts in [granted, overridden, asked, committed, enrolled, extended] {
            #expect(StoredProjectionWriter.json(facts) == nil)
        }
    }
}
