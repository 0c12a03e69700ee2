import AppStoreVerification
import Foundation
import LocalAppStore
import Testing

@Suite("AppReceiptReader")
struct AppReceiptReaderTests {
    static let purchases = [("1000", "1000"), ("1001", "1000"), ("2000", "2000"), ("3005", "")]

    static func receipt(bundleID: String = "com.example.app", purchases: [(String, String)] = purchases) throws -> String {
        try LocalAppReceipt.base64(bundleID: bundleID, purchases: purchases.map { (transactionID: $0.0, originalTransactionID: $0.1) })
    }

    @Test("a receipt's purchases: each original transaction ID once, in order; the transaction ID where no original one is given")
    func reads() throws {
        #expect(try AppReceiptReader.transactionIDs(base64: Self.receipt(), bundleID: "com.example.app") == ["1000", "2000", "3005"])
    }

    @Test("BER as Apple writes receipts (an indefinite length) reads the same; line breaks in the base64 are ignored")
    func indefiniteLength() throws {
        let der = try #require(Data(base64Encoded: Self.receipt()))
        // The outer sequence's definite length, replaced by an indefinite one and its end-of-contents.
        let lengthBytes = der[1] < 0x80 ? 1 : 1 + Int(der[1] & 0x7F)
        let ber = Data([0x30, 0x80]) + der.dropFirst(1 + lengthBytes) + Data([0, 0])
        let wrapped = ber.base64EncodedString(options: .lineLength64Characters)
        #expect(try AppReceiptReader.transactionIDs(base64: wrapped, bundleID: "com.example.app") == ["1000", "2000", "3005"])
    }

    @Test("what isn't one is refused with its code, never a crash: every truncation of a receipt too",
          arguments: [
            ("not base64 at all!", AppReceiptError.Code.notBase64),
            (Data("plain text, not ASN.1".utf8).base64EncodedString(), .malformed),
            (Data([0x30, 0x03, 0x02, 0x01, 0x01]).base64EncodedString(), .malformed),
          ])
    func refused(_ text: String, _ code: AppReceiptError.Code) {
        #expect(throws: AppReceiptError(code, "")) { try AppReceiptReader.transactionIDs(base64: text, bundleID: "com.example.app") }
    }

    @Test("another app's receipt, one without purchases, and every truncation are refused")
    func otherAppEmptyAndTruncated() throws {
        #expect(throws: AppReceiptError(.otherApp, "")) { try AppReceiptReader.transactionIDs(base64: Self.receipt(bundleID: "com.other"), bundleID: "com.example.app") }
        #expect(throws: AppReceiptError(.noPurchases, "")) { try AppReceiptReader.transactionIDs(base64: Self.receipt(purchases: []), bundleID: "com.example.app") }
        let bytes = try #require(Data(base64Encoded: Self.receipt()))
        for end in 1..<bytes.count {
            #expect(throws: AppReceiptError.self) { try AppReceiptReader.transactionIDs(base64: bytes.prefix(end).base64EncodedString(), bundleID: "com.example.app") }
        }
    }
}
