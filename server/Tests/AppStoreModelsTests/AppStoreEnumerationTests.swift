import AppStoreModels
import Foundation
import Testing

@Suite("AppStoreEnumeration")
struct AppStoreEnumerationTests {
    @Test("a documented value decodes to its constant and name")
    func knownValue() throws {
        let value = try AppStoreJSON.decoder().decode([OfferType].self, from: Data("[1, 4]".utf8))
        #expect(value == [.introductoryOffer, .winBackOffer])
        #expect(value.map(\.name) == ["INTRODUCTORY_OFFER", "WIN_BACK_OFFER"])
        #expect(value.allSatisfy { $0.isKnown })
    }

    @Test("a value Apple adds later decodes, keeps its raw value and re-encodes unchanged")
    func unknownValue() throws {
        let decoded = try AppStoreJSON.decoder().decode([Environment].self, from: Data(#"["Production","Staging"]"#.utf8))
        #expect(decoded[0] == .production)
        #expect(decoded[1].rawValue == "Staging")
        #expect(decoded[1].isKnown == false)
        #expect(decoded[1].name == nil)
        #expect(decoded[1].description == "unknown(Staging)")
        let encoded = try AppStoreJSON.encoder().encode(decoded)
        #expect(String(decoding: encoded, as: UTF8.self) == #"["Production","Staging"]"#)
    }

    @Test("an unknown integer value never fails decoding", arguments: [0, 6, 99, -1])
    func unknownStatus(raw: Int32) throws {
        let status = try AppStoreJSON.decoder().decode(Status.self, from: Data("\(raw)".utf8))
        #expect(status.rawValue == raw)
        #expect(status.isKnown == false)
    }

    @Test("every documented Status maps to Apple's name")
    func statusNames() {
        #expect(Status.documented.map(\.name) == ["ACTIVE", "EXPIRED", "BILLING_RETRY", "BILLING_GRACE_PERIOD", "REVOKED"])
        #expect(Status.documented.map(\.value.rawValue) == [1, 2, 3, 4, 5])
    }
}
