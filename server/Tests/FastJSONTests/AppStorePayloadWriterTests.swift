import EntitleTestSupport
@testable import FastJSON
import Foundation
import Testing

@testable import AppStoreModels

/// Transactions and renewal info written without `JSONEncoder`: byte for byte what it writes, or left
/// to it.
@Suite("AppStorePayloadWriter")
struct AppStorePayloadWriterTests {
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try AppStoreJSON.encoder().encode(value), as: UTF8.self)
    }

    static func transactionSamples() throws -> [JWSTransactionDecodedPayload] {
        var awkward = FullPayloads.transaction
        awkward.productId = "com.example/\"yearly\"\n\u{1}"
        awkward.expiresDate = Date(timeIntervalSince1970: 1e13)
        return [
            FullPayloads.transaction, awkward, JWSTransactionDecodedPayload(),
            try AppStoreJSON.decode(JWSTransactionDecodedPayload.self, from: AppStorePayloadReaderTests.shapedPayload("signedTransaction")),
        ]
    }

    static func renewalSamples() throws -> [JWSRenewalInfoDecodedPayload] {
        var awkward = FullPayloads.renewalInfo
        awkward.eligibleWinBackOfferIds = ["\\", "/", "\u{1F}", ""]
        awkward.renewalDate = Date(timeIntervalSince1970: -0.0005)
        return [
            FullPayloads.renewalInfo, awkward, JWSRenewalInfoDecodedPayload(),
            try AppStoreJSON.decode(JWSRenewalInfoDecodedPayload.self, from: AppStorePayloadReaderTests.shapedPayload("signedRenewalInfo")),
        ]
    }

    @Test("the full payloads set every member but those written only through Codable")
    func fullPayloadsAreFull() {
        #expect(unsetMembers(of: FullPayloads.transaction) == ["advancedCommerceInfo", "commitmentInfo"])
        #expect(unsetMembers(of: FullPayloads.renewalInfo) == ["advancedCommerceInfo", "commitmentInfo"])
    }

    @Test("transactions are written as JSONEncoder writes them")
    func transactions() throws {
        for transaction in try Self.transactionSamples() {
            var json = JSONText()
            #expect(AppStorePayloadWriter.write(transaction, to: &json))
            #expect(json.text == (try Self.encoded(transaction)))
        }
    }

    @Test("renewal info is written as JSONEncoder writes it")
    func renewals() throws {
        for info in try Self.renewalSamples() {
            var json = JSONText()
            #expect(AppStorePayloadWriter.write(info, to: &json))
            #expect(json.text == (try Self.encoded(info)))
        }
    }

    @Test("a payload with a member written only through Codable is left to JSONEncoder")
    func leftToJSONEncoder() throws {
        let models = AppStorePayloadReaderTests.models
        let transaction = try AppStoreJSON.decoder().decode(
            JWSTransactionDecodedPayload.self, from: Data(contentsOf: models.appendingPathComponent("signedTransaction.json")))
        let info = try AppStoreJSON.decoder().decode(
            JWSRenewalInfoDecodedPayload.self, from: Data(contentsOf: models.appendingPathComponent("signedRenewalInfo.json")))
        var json = JSONText()
        #expect(transaction.commitmentInfo != nil && !AppStorePayloadWriter.write(transaction, to: &json))
        #expect(info.advancedCommerceInfo != nil && !AppStorePayloadWriter.write(info, to: &json))
        #expect(json.text.isEmpty)
    }
}
