import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriberErasure")
struct SubscriberErasureTests {
    static let jane: AppUserID = "jane@example.com"
    static let pseudonym: AppUserID = "$erased:00000000000000000000000000000001"
    static let erasure = SubscriberErasure(subject: jane, pseudonym: pseudonym, at: ReferenceTime.day(40))
    static let apple = AppleFacts()

    static func event(_ seed: Int, _ owner: AppUserID, source: LedgerEventSource = .admin, key: String? = nil, _ payload: LedgerEventPayload) -> LedgerEvent {
        LedgerEvent(
            id: LedgerEvents.id(seed), appUserID: owner, source: source, idempotencyKey: key ?? "k\(seed)", signedDate: ReferenceTime.day(Double(seed)),
            receivedAt: ReferenceTime.day(Double(seed)), payload: payload)
    }

    /// Jane's own ledger: a purchase, her attributes, a named device, an operator's note, and an anonymous
    /// install merged in that carried its own attributes.
    static var janesEvents: [LedgerEvent] {
        let purchase = apple.subscription(
            "com.example.monthly", original: "2000", id: "2000", purchase: ReferenceTime.day(1), expires: ReferenceTime.day(31))
        var anonymous = SubscriberFacts(appUserID: "$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a")
        anonymous.recordAttribute("displayName", "Jane on her iPad", at: ReferenceTime.day(2))
        return [
            LedgerEvents.appTransaction(1, appUserID: jane, purchase),
            event(2, jane, source: .attributes, .attributesSet(["email": "jane@example.com", "displayName": "Jane Doe", "timeZone": "Europe/Berlin"])),
            event(3, jane, source: .items, .item(ItemChange(limit: "childDevices", itemID: "ipad-1", action: .register, name: "Jane's iPad", at: ReferenceTime.day(3)))),
            event(4, jane, .grant(EntitlementGrant(id: "g1", entitlementID: "premium", startsAt: ReferenceTime.day(4), reason: "asked by jane@example.com"))),
            event(5, jane, source: .login, key: "merge:$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a→jane@example.com",
                  .subscriberMerged(from: "$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", into: jane, facts: anonymous)),
        ]
    }

    @Test("her own events: what identifies her is gone, the time zone and every financial fact stay, under the pseudonym")
    func own() throws {
        let erased = Self.janesEvents.map(Self.erasure.erasingOwn)
        #expect(erased.allSatisfy { $0.appUserID == Self.pseudonym })
        let facts = SubscriberFacts.fold(appUserID: Self.pseudonym, events: erased)
        let before = SubscriberFacts.fold(appUserID: Self.jane, events: Self.janesEvents)
        #expect(facts.purchases == before.purchases)
        #expect(facts.attributes == ["timeZone": "Europe/Berlin"])
        #expect(facts.items["childDevices"]?["ipad-1"]?.name == nil && facts.items["childDevices"]?["ipad-1"]?.isRegistered == true)
        #expect(facts.grants.map(\.reason) == [nil] && facts.grants.map(\.entitlementID) == ["premium"])
        // The app's keys may hold what it sent: replaced. Apple's are Apple's identifiers: kept.
        #expect(erased[1...].map(\.idempotencyKey) == (2...5).map { "erased:\(LedgerEvents.id($0).uuidString.lowercased())" })
        #expect(erased[0].idempotencyKey == Self.janesEvents[0].idempotencyKey)
        let text = String(decoding: try JSONEncoder().encode(erased), as: UTF8.self)
        for personal in ["jane@example.com", "Jane Doe", "Jane's iPad", "Jane on her iPad"] {
            #expect(!text.contains(personal), "\(personal) is still there")
        }
    }

    @Test("another subscriber's events: every mention of her becomes the pseudonym, nothing else changes",
          arguments: [
            LedgerEventPayload.purchaseClaimed(originalTransactionID: "3000", by: jane, at: ReferenceTime.day(6)),
            .householdJoined(householdID: jane, at: ReferenceTime.day(6)),
            .householdLeft(householdID: jane, at: ReferenceTime.day(7)),
            .purchaseTransferred(originalTransactionID: "4000", from: "carol", to: jane, facts: nil),
            .subscriberMerged(from: "$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a", into: jane, facts: nil),
          ])
    func mentions(_ payload: LedgerEventPayload) throws {
        let event = Self.event(6, "bob", source: .restore, key: "purchase-claim:3000:\(Self.jane)", payload)
        #expect(Self.erasure.mentionsSubject(event))
        let renamed = Self.erasure.renaming(event)
        #expect(renamed.appUserID == "bob" && renamed.idempotencyKey == "purchase-claim:3000:\(Self.pseudonym)")
        let text = String(decoding: try JSONEncoder().encode(renamed), as: UTF8.self)
        #expect(!text.contains("jane") && text.contains("$erased:"))
        #expect(!Self.erasure.mentionsSubject(renamed))
    }

    @Test("facts carried along: her claims on a purchase that moved, and a household she led, are renamed; others' stay")
    func carriedFacts() {
        var chain = SubscriptionFacts(originalTransactionID: "3000")
        chain.recordClaim(by: Self.jane, at: ReferenceTime.day(6))
        chain.recordClaim(by: "dave", at: ReferenceTime.day(8))
        let transfer = Self.event(9, "erin", source: .restore, .purchaseTransferred(originalTransactionID: "3000", from: "bob", to: "erin", facts: chain))
        #expect(Self.erasure.mentionsSubject(transfer))
        guard case .purchaseTransferred(_, _, _, let facts?) = Self.erasure.renaming(transfer).payload else {
            Issue.record("still a transfer")
            return
        }
        #expect(facts.claims == [Self.pseudonym.rawValue: ReferenceTime.day(6), "dave": ReferenceTime.day(8)])
        var member = SubscriberFacts(appUserID: "kid")
        member.households[Self.jane] = .init(joinedAt: ReferenceTime.day(3))
        member.purchaseClaims["3000"] = [Self.jane.rawValue: ReferenceTime.day(6)]
        let renamed = Self.erasure.renaming(member)
        #expect(Array(renamed.households.keys) == [Self.pseudonym] && renamed.purchaseClaims["3000"] == [Self.pseudonym.rawValue: ReferenceTime.day(6)])
        #expect(renamed.appUserID == "kid")
    }

    @Test("an event that doesn't name her is left as it is")
    func unrelated() {
        let event = Self.event(10, "bob", .grant(EntitlementGrant(id: "g2", entitlementID: "premium", startsAt: ReferenceTime.day(10), reason: "loyal")))
        #expect(!Self.erasure.mentionsSubject(event))
        #expect(Self.erasure.renaming(event) == event)
    }

    @Test("the deletion's own event marks the pseudonym's facts; pseudonyms are random and recognisable")
    func marker() {
        let facts = SubscriberFacts.fold(appUserID: Self.pseudonym, events: [Self.erasure.event(id: LedgerEvents.id(11))])
        #expect(facts.erasedAt == ReferenceTime.day(40))
        var generator = SeededGenerator(seed: 7)
        let pseudonyms = (0..<100).map { _ in SubscriberErasure.newPseudonym(using: &generator) }
        #expect(Set(pseudonyms).count == 100)
        #expect(pseudonyms.allSatisfy { $0.isErased && $0.rawValue.count == 8 + 32 && $0.problem == nil })
        #expect(!Self.jane.isErased)
    }
}
