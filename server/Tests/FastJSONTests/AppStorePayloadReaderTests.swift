import AppStoreModels
import EntitleTestSupport
import FastJSON
import Foundation
import Testing

/// Apple's payloads read without `JSONDecoder`: each reads exactly as `JSONDecoder` reads it, or is left
/// to `JSONDecoder`.
@Suite("AppStorePayloadReader")
struct AppStorePayloadReaderTests {
    static let tests = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    static let models = tests.appendingPathComponent("Fixtures/AppleModels")
    static let shaped = tests.appendingPathComponent("AppStoreVerificationTests/Vectors/apple-shaped")

    /// One of the three types read here, with the payloads of it the tests use.
    enum Kind: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case notification, transaction, renewalInfo

        var testDescription: String { rawValue }

        /// What the reader makes of `bytes`, wrapped so two kinds' values compare as `AnyHashable`.
        func read(_ bytes: [UInt8]) -> AnyHashable? {
            bytes.withUnsafeBufferPointer { bytes in
                switch self {
                case .notification: AppStorePayloadReader.read(ResponseBodyV2DecodedPayload.self, from: bytes).map(AnyHashable.init)
                case .transaction: AppStorePayloadReader.read(JWSTransactionDecodedPayload.self, from: bytes).map(AnyHashable.init)
                case .renewalInfo: AppStorePayloadReader.read(JWSRenewalInfoDecodedPayload.self, from: bytes).map(AnyHashable.init)
                }
            }
        }

        /// What `JSONDecoder` makes of `bytes`, or `nil` when it throws.
        func decoded(_ bytes: [UInt8]) -> AnyHashable? {
            let decoder = AppStoreJSON.decoder()
            let data = Data(bytes)
            return switch self {
            case .notification: (try? decoder.decode(ResponseBodyV2DecodedPayload.self, from: data)).map(AnyHashable.init)
            case .transaction: (try? decoder.decode(JWSTransactionDecodedPayload.self, from: data)).map(AnyHashable.init)
            case .renewalInfo: (try? decoder.decode(JWSRenewalInfoDecodedPayload.self, from: data)).map(AnyHashable.init)
            }
        }

        /// What ``AppStoreJSON/decode(_:from:)`` makes of `bytes`, or `nil` when it throws.
        func decodedEitherWay(_ bytes: [UInt8]) -> AnyHashable? {
            switch self {
            case .notification: (try? AppStoreJSON.decode(ResponseBodyV2DecodedPayload.self, from: bytes)).map(AnyHashable.init)
            case .transaction: (try? AppStoreJSON.decode(JWSTransactionDecodedPayload.self, from: bytes)).map(AnyHashable.init)
            case .renewalInfo: (try? AppStoreJSON.decode(JWSRenewalInfoDecodedPayload.self, from: bytes)).map(AnyHashable.init)
            }
        }

        /// The names of the type's stored properties: the keys of its synthesized `Codable`.
        var keys: [String] {
            let value: Any = switch self {
            case .notification: ResponseBodyV2DecodedPayload()
            case .transaction: JWSTransactionDecodedPayload()
            case .renewalInfo: JWSRenewalInfoDecodedPayload()
            }
            return Mirror(reflecting: value).children.compactMap(\.label)
        }

        /// Apple's own vector and the production-shaped one, and whether the reader reads each: Apple's
        /// transaction and renewal info carry `advancedCommerceInfo` and `commitmentInfo`, which it leaves.
        var vectors: [(name: String, bytes: [UInt8], read: Bool)] {
            get throws {
                let (model, shaped) = switch self {
                case .notification: ("signedNotification.json", "signedNotification")
                case .transaction: ("signedTransaction.json", "signedTransaction")
                case .renewalInfo: ("signedRenewalInfo.json", "signedRenewalInfo")
                }
                return [
                    (model, Array(try Data(contentsOf: AppStorePayloadReaderTests.models.appendingPathComponent(model))), self == .notification),
                    (shaped, try AppStorePayloadReaderTests.shapedPayload(shaped), true),
                ]
            }
        }

        /// A payload small enough to change at every byte: the smaller of the two read here.
        var mutationSubject: [UInt8] {
            get throws { try vectors.filter(\.read).map(\.bytes).min { $0.count < $1.count }! }
        }
    }

    /// The payload of a production-shaped vector.
    static func shapedPayload(_ name: String) throws -> [UInt8] {
        let jws = try String(contentsOf: shaped.appendingPathComponent(name), encoding: .utf8)
        let segments = jws.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ".")
        return Array(try #require(Base64URL.decode(String(segments[1]))))
    }

    static let fullNotification = ResponseBodyV2DecodedPayload(
        notificationType: NotificationTypeV2(rawValue: "NOT_YET_DOCUMENTED"), subtype: .autoRenewDisabled, notificationUUID: "n-ü",
        data: NotificationData(
            environment: .production, appAppleId: Int64.max, bundleId: "com.example", bundleVersion: "1.2.3 (4)",
            signedTransactionInfo: "eyJh.eyJi.c2ln", signedRenewalInfo: "", status: Status(rawValue: 99),
            consumptionRequestReason: .unintendedPurchase),
        version: "2.0", signedDate: Date(timeIntervalSince1970: 1_698_148_900.001))

    static func encoded(_ value: some Encodable) throws -> [UInt8] {
        Array(try AppStoreJSON.encoder().encode(value))
    }

    static func full(_ kind: Kind) throws -> [UInt8] {
        switch kind {
        case .notification: try encoded(fullNotification)
        case .transaction: try encoded(FullPayloads.transaction)
        case .renewalInfo: try encoded(FullPayloads.renewalInfo)
        }
    }

    /// `json` with members the type doesn't have, of every kind of value, before and after its own.
    static func withForeignKeys(_ json: [UInt8]) -> [UInt8] {
        let foreign = #""deviceVerification":"aGVsbG8=","nested":{"a":[1,-2.5e3,{"b":null}],"c":{}},"list":[],"flag":true,"off":false,"none":null,"ü":"ünïcödé","n":0"#
        var text = String(decoding: json, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        text.removeFirst()
        return Array("{\(foreign),\(text.dropLast()), \"after\" : [ [ ] ] }".utf8)
    }

    @Test("Apple's vectors, production-shaped ones and every field read as JSONDecoder reads them", arguments: Kind.allCases)
    func sameAsJSONDecoder(kind: Kind) throws {
        var payloads = try kind.vectors
        payloads.append(("every field", try Self.full(kind), true))
        payloads += payloads.map { ("\($0.name) with members the type doesn't have", Self.withForeignKeys($0.bytes), $0.read) }
        for (name, bytes, readHere) in payloads {
            let decoded = try #require(kind.decoded(bytes), "JSONDecoder reads \(name)")
            #expect(kind.read(bytes) == (readHere ? decoded : nil), "\(name)")
            #expect(kind.decodedEitherWay(bytes) == decoded, "\(name)")
        }
    }

    @Test("every key a type has is read or left to JSONDecoder, never stepped over", arguments: Kind.allCases)
    func ownKeysNeverSkipped(kind: Kind) {
        #expect(kind.keys.count > 5)
        for key in kind.keys {
            // No key of these types holds an array of objects.
            #expect(kind.read(Array(#"{"\#(key)":[{}]}"#.utf8)) == nil, "\(key)")
        }
    }

    @Test("every truncation and every one-byte change of a payload reads as JSONDecoder reads it, or is left to it", arguments: Kind.allCases)
    func mutations(kind: Kind) throws {
        let json = Self.withForeignKeys(try kind.mutationSubject)
        var texts: [[UInt8]] = (0..<json.count).map { Array(json[..<$0]) }
        for position in json.indices {
            for replacement in [UInt8(ascii: "\""), UInt8(ascii: "1"), UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: " "), UInt8(ascii: "e"),
                UInt8(ascii: "\\"), 0, 0x80, 0xFF]
            {
                var changed = json
                changed[position] = replacement
                texts.append(changed)
            }
        }
        var readHere = 0
        for text in texts {
            guard let read = kind.read(text) else { continue }
            readHere += 1
            #expect(read == kind.decoded(text), "\(String(decoding: text, as: UTF8.self))")
        }
        #expect(readHere > json.count)
    }

    @Test("what the reader doesn't read is left to JSONDecoder", arguments: [
        (Kind.transaction, #"{"transactionId":null}"#),
        (.transaction, #"{"transactionId":"1\/2"}"#),
        (.transaction, #"{"transactionId":"1","transactionId":"1"}"#),
        (.transaction, #"{"price":1.0}"#),
        (.transaction, #"{"price":1e3}"#),
        (.transaction, #"{"commitmentInfo":{}}"#),
        (.transaction, #"{"advancedCommerceInfo":{}}"#),
        (.transaction, #"{"foreign":"a\nb"}"#),
        (.transaction, "\u{FEFF}{}"),
        (.transaction, "{\"foreign\":" + String(repeating: "[", count: 40) + String(repeating: "]", count: 40) + "}"),
        (.renewalInfo, #"{"eligibleWinBackOfferIds":["a",null]}"#),
        (.renewalInfo, #"{"commitmentInfo":{}}"#),
        (.notification, #"{"summary":{"bundleId":"com.example"}}"#),
        (.notification, #"{"externalPurchaseToken":{"bundleId":"com.example"}}"#),
        (.notification, #"{"appData":{"bundleId":"com.example"}}"#),
        (.notification, #"{"data":{"bundleVersion":"1\u0000"}}"#),
    ])
    func leftToJSONDecoder(kind: Kind, json: String) {
        let bytes = Array(json.utf8)
        #expect(kind.read(bytes) == nil)
        #expect(kind.decodedEitherWay(bytes) == kind.decoded(bytes))
    }

    @Test("a summary notification, read by JSONDecoder, decodes the same through AppStoreJSON.decode")
    func summaryThroughDecode() throws {
        let payload = try Self.shapedPayload("signedSummaryNotification")
        #expect(Kind.notification.read(payload) == nil)
        let notification = try AppStoreJSON.decode(ResponseBodyV2DecodedPayload.self, from: payload)
        #expect(notification.summary?.succeededCount == 5)
        #expect(AnyHashable(notification) == Kind.notification.decoded(payload))
    }

    @Test("text that isn't a payload gets JSONDecoder's error", arguments: [
        "", "[]", "{", #"{"price":"1"}"#, "{\"a\":\u{1}}", #"{"expiresDate":"2025-01-01"}"#, #"{"transactionId":"1"} x"#,
    ])
    func errors(json: String) {
        #expect(throws: DecodingError.self) { try AppStoreJSON.decode(JWSTransactionDecodedPayload.self, from: Array(json.utf8)) }
    }
}
