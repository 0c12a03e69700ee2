import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("SubscriberAttribute")
struct SubscriberAttributeTests {
    static func event(_ seed: Int, _ values: [String: String?], at: Date) -> LedgerEvent {
        LedgerEvent(
            id: LedgerEvents.id(seed), appUserID: "u", source: .attributes, idempotencyKey: "a\(seed)", signedDate: at, receivedAt: at,
            payload: .attributesSet(values))
    }

    @Test("the value set last wins in any order; a clear is a value; same-instant sets resolve the same way every time", arguments: 0..<12)
    func lastWriterWins(seed: Int) {
        let events = [
            Self.event(1, ["email": "a@example.com"], at: ReferenceTime.day(1)),
            Self.event(2, ["email": nil, "locale": "de-DE"], at: ReferenceTime.day(2)),
            Self.event(3, ["displayName": "Ana"], at: ReferenceTime.day(3)),
            Self.event(4, ["displayName": "Bea"], at: ReferenceTime.day(3)),
        ]
        var generator = SeededGenerator(seed: UInt64(seed))
        var facts = SubscriberFacts(appUserID: "u")
        for event in events.shuffled(using: &generator) { facts.apply(event) }
        #expect(facts.attributes == ["locale": "de-DE", "displayName": "Bea"])
        #expect(facts == SubscriberFacts.fold(appUserID: "u", events: events))
    }

    @Test("each attribute's rule", arguments: [
        (SubscriberAttribute.timeZone, "Europe/Berlin", true), (.timeZone, "Mars/Olympus", false), (.email, "ana@example.com", true),
        (.email, "ana@", false), (.email, "a b@example.com", false), (.displayName, "Ana María", true), (.displayName, "", false),
        (.locale, "pt-BR", true), (.locale, "pt_BR", true), (.locale, "pt BR", false),
    ])
    func rules(attribute: SubscriberAttribute, value: String, valid: Bool) {
        #expect((attribute.problem(with: value) == nil) == valid)
    }
}
