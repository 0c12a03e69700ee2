import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

/// The stored events written without `JSONEncoder`: byte for byte what the ledger's encoder writes, or
/// left to it.
@Suite("StoredEventWriter")
struct StoredEventWriterTests {
    static func encoded(_ event: LedgerEvent) throws -> String {
        String(decoding: try StoredJSON.encoder.encode(event), as: UTF8.self)
    }

    /// The reader's events, and the same with awkward text in every string the event itself holds.
    static let events: [LedgerEvent] = StoredEventReaderTests.events + StoredEventReaderTests.events.map { event in
        var event = event
        event.appUserID = event.appUserID.map { "\($0)/\"\\\n\u{1}é" }
        event.idempotencyKey += "/k\u{1F}"
        event.notificationUUID = event.notificationUUID.map { "\($0)\t" }
        event.transactionID = "t/1"
        event.originalTransactionID = ""
        event.signedDate = event.signedDate.map { $0.addingTimeInterval(0.0001) }
        event.rawSignedPayload = "eyJ.eyJ.c2ln"
        return event
    }

    @Test("every member of an event is set in some sample, so the comparisons with JSONEncoder cover it")
    func samplesSetEveryMember() {
        let unsetEverywhere = Self.events.dropFirst().reduce(Set(unsetMembers(of: Self.events[0]))) { $0.intersection(unsetMembers(of: $1)) }
        #expect(unsetEverywhere.isEmpty)
    }

    @Test("the events the ledger holds most of are written as JSONEncoder writes them", arguments: events.indices)
    func sameAsJSONEncoder(index: Int) throws {
        let event = Self.events[index]
        let written = try #require(StoredEventWriter.json(event))
        #expect(written == (try Self.encoded(event)))
    }

    @Test("every other kind of event is left to JSONEncoder", arguments: [
        LedgerEventPayload.usage(UsageRecord(feature: "f", amount: 1, at: ReferenceTime.start, idempotencyKey: "u")),
        .timeZoneSet(identifier: "Europe/Paris"), .householdJoined(householdID: "h", at: ReferenceTime.start),
        .purchaseTransferred(originalTransactionID: "o", from: nil, to: "u2", facts: nil), .openAccessSet(nil),
        .appTrialExtended(AppTrialExtension(id: "x", days: 7, reason: "support", at: ReferenceTime.start)),
    ])
    func otherKinds(payload: LedgerEventPayload) {
        #expect(StoredEventWriter.json(LedgerEvents.admin(1, appUserID: "u", at: ReferenceTime.start, payload)) == nil)
    }

    @Test("an event with a member written only through Codable, or a date JSONEncoder refuses, is left to it")
    func leftToJSONEncoder() {
        var transaction = JWSTransactionDecodedPayload(transactionId: "1")
        transaction.commitmentInfo = TransactionCommitmentInfo()
        #expect(StoredEventWriter.json(LedgerEvents.admin(1, appUserID: "u", at: ReferenceTime.start, .transaction(transaction))) == nil)
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.commitmentInfo = RenewalCommitmentInfo()
        #expect(StoredEventWriter.json(LedgerEvents.notification(2, appUserID: nil, type: .didRenew, transaction: nil, renewalInfo: renewal)) == nil)
        #expect(StoredEventWriter.json(LedgerEvents.admin(3, appUserID: "u", at: .distantFuture, .appTrialStarted(at: Date(timeIntervalSince1970: .infinity)))) == nil)
    }

    @Test("the ledger stores what the writer writes, and reads back what JSONEncoder and JSONDecoder give")
    func throughTheLedger() async throws {
        try await StorageEngine.sqlite.withStore { store in
            let event = Self.events.last { $0.appUserID != nil && $0.source == .appTransaction }!
            _ = try await store.append(event)
            let read = try await store.events(appUserID: event.appUserID!)
            // Dates come back as JSON's milliseconds make them, as through JSONEncoder and JSONDecoder.
            var expected = try StoredJSON.decoder().decode(LedgerEvent.self, from: Data(Self.encoded(event).utf8))
            expected.rawSignedPayload = event.rawSignedPayload
            #expect(read == [expected])
        }
    }
}
