import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

/// The stored events read without `JSONDecoder`: each reads exactly as `JSONDecoder` reads it, or is
/// left to `JSONDecoder`.
@Suite("StoredEventReader")
struct StoredEventReaderTests {
    static let apple = AppleFacts()
    static let start = ReferenceTime.start

    static let events: [LedgerEvent] = {
        let transaction = apple.subscription(
            "com.example.monthly", original: "R1", id: "R1-1", purchase: start, expires: ISODuration(months: 1).added(to: start),
            offer: .introductoryOffer, discount: .freeTrial, price: 0, appAccountToken: UUID())
        let renewal = apple.renewal(original: "R1", product: "com.example.monthly", signed: start, graceEnds: start.addingTimeInterval(86_400))
        var events: [LedgerEvent] = [
            LedgerEvents.notification(1, appUserID: "u1", type: .subscribed, subtype: .initialBuy, transaction: transaction, renewalInfo: renewal),
            LedgerEvents.notification(2, appUserID: nil, type: .didRenew, transaction: FullPayloads.transaction, renewalInfo: FullPayloads.renewalInfo),
            LedgerEvents.notification(3, appUserID: nil, type: NotificationTypeV2(rawValue: "NOT_YET_DOCUMENTED"), transaction: nil, renewalInfo: nil),
            LedgerEvents.admin(4, appUserID: "u1", at: start, .notification(type: nil, subtype: nil, transaction: nil, renewalInfo: FullPayloads.renewalInfo)),
            LedgerEvents.appTransaction(5, appUserID: "u1", transaction),
            LedgerEvents.appTransaction(6, appUserID: "👩‍👩‍👧", FullPayloads.transaction),
            LedgerEvents.admin(7, appUserID: "u1", at: start.addingTimeInterval(0.0005), .appTrialStarted(at: start.addingTimeInterval(-0.25))),
            LedgerEvents.admin(8, appUserID: "u1", at: start, .renewalInfo(FullPayloads.renewalInfo)),
            LedgerEvents.admin(9, appUserID: "u1", at: start, .renewalInfo(JWSRenewalInfoDecodedPayload())),
            LedgerEvents.admin(10, appUserID: "u1", at: start, .transaction(JWSTransactionDecodedPayload())),
        ]
        for source in LedgerEventSource.allCases {
            events.append(LedgerEvent(
                id: UUID(), appUserID: nil, source: source, idempotencyKey: "k-\(source.rawValue)", receivedAt: Date(timeIntervalSince1970: 1_234_567.891),
                payload: .appTrialStarted(at: Date(timeIntervalSince1970: 1_234_567.891))))
        }
        return events
    }()

    static func stored(_ event: LedgerEvent) throws -> String {
        String(decoding: try StoredJSON.encoder.encode(event), as: UTF8.self)
    }

    static func decoded(_ json: String) -> LedgerEvent? {
        try? StoredJSON.decoder().decode(LedgerEvent.self, from: Data(json.utf8))
    }

    @Test("the events the ledger holds most of read as JSONDecoder reads them", arguments: events.indices)
    func sameAsJSONDecoder(index: Int) throws {
        let json = try Self.stored(Self.events[index])
        let read = try #require(StoredEventReader.event(json), "left to JSONDecoder: \(json)")
        #expect(read == Self.decoded(json))
    }

    @Test("every truncation and every one-byte change of a stored event reads as JSONDecoder reads it, or is left to it")
    func mutations() throws {
        let json = Array(try Self.stored(Self.events[1]).utf8)
        var texts: [String] = []
        for end in 0..<json.count { texts.append(String(decoding: json[..<end], as: UTF8.self)) }
        for position in json.indices {
            for replacement in [UInt8(ascii: "\""), UInt8(ascii: "1"), UInt8(ascii: "}"), UInt8(ascii: " "), UInt8(ascii: "e"), UInt8(ascii: "\\"), 0] {
                var changed = json
                changed[position] = replacement
                texts.append(String(decoding: changed, as: UTF8.self))
            }
        }
        var readHere = 0
        for text in texts {
            guard let read = StoredEventReader.event(text) else { continue }
            readHere += 1
            #expect(read == Self.decoded(text), "\(text)")
        }
        #expect(readHere > 0)
    }

    @Test("what the reader doesn't read is left to JSONDecoder", arguments: [
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin","extra":1}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin","appUserID":null}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k\/1","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":01}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin"} x"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"timeZoneSet":{"identifier":"UTC"}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1},"usage":{}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"transaction":{"_0":{"price":1.5}}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"transaction":{"_0":{"advancedCommerceInfo":{}}}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"somewhere"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"transaction":{"_0":{"price":1,"price":1}}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1,"at":1}},"receivedAt":1,"source":"admin"}"#,
        #"{"id":"not-a-uuid","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin"}"#,
        #"{"idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin"}"#,
        // A key spelt with U+212A KELVIN SIGN, canonically equivalent to "idempotencyKey".
        #"{"id":"00000000-0000-4000-8000-000000000001","idempotencyKey":"k","payload":{"appTrialStarted":{"at":1}},"receivedAt":1,"source":"admin"}"#,
    ])
    func leftToJSONDecoder(json: String) {
        #expect(StoredEventReader.event(json) == nil)
    }

    @Test("a ledger's events read back equal to what was appended, on either path")
    func throughTheLedger() async throws {
        try await StorageEngine.sqlite.withStore { store in
            for event in Self.events where event.appUserID == "u1" { _ = try await store.append(event) }
            let read = try await store.events(appUserID: "u1")
            let appended = try Self.events.filter { $0.appUserID == "u1" }.map { try Self.decoded(Self.stored($0)) }
            #expect(Set(read.map(\.id)) == Set(appended.map { $0?.id }.compactMap { $0 }))
            for event in read {
                var expected = appended.first { $0?.id == event.id } ?? nil
                expected?.rawSignedPayload = event.rawSignedPayload
                #expect(event == expected)
            }
        }
    }
}
