import AppStoreModels
import Foundation
import Testing

@Suite("AppTransaction")
struct AppTransactionTests {
    @Test("Apple's appTransaction vector decodes with every field typed")
    func decodes() throws {
        let url = JWSTransactionDecodedPayloadTests.models.appendingPathComponent("appTransaction.json")
        let app = try AppStoreJSON.decoder().decode(AppTransaction.self, from: Data(contentsOf: url))
        #expect(app.receiptType == .localTesting)
        #expect(app.appAppleId == 531412)
        #expect(app.bundleId == "com.example")
        #expect(app.applicationVersion == "1.2.3")
        #expect(app.versionExternalIdentifier == 512)
        #expect(app.receiptCreationDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(app.originalPurchaseDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(app.originalApplicationVersion == "1.1.2")
        #expect(app.deviceVerification == "device_verification_value")
        #expect(app.deviceVerificationNonce == UUID(uuidString: "48ccfa42-7431-4f22-9908-7e88983e105a"))
        #expect(app.preorderDate == Date(timeIntervalSince1970: 1_698_148_700))
        #expect(app.appTransactionId == "71134")
        #expect(app.originalPlatform == .ios)
    }
}
