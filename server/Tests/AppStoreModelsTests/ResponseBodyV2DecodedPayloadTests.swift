import AppStoreModels
import Foundation
import Testing

@Suite("ResponseBodyV2DecodedPayload")
struct ResponseBodyV2DecodedPayloadTests {
    static func decode(_ name: String) throws -> ResponseBodyV2DecodedPayload {
        let url = JWSTransactionDecodedPayloadTests.models.appendingPathComponent(name)
        return try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(contentsOf: url))
    }

    @Test("a notification with data decodes every field")
    func data() throws {
        let notification = try Self.decode("signedConsumptionRequestNotification.json")
        #expect(notification.notificationType == .consumptionRequest)
        #expect(notification.notificationUUID == "002e14d5-51f5-4503-b5a8-c3a1af68eb20")
        #expect(notification.version == "2.0")
        #expect(notification.signedDate == Date(timeIntervalSince1970: 1_698_148_900))
        let data = try #require(notification.data)
        #expect(data.environment == .localTesting)
        #expect(data.appAppleId == 41234)
        #expect(data.bundleId == "com.example")
        #expect(data.bundleVersion == "1.2.3")
        #expect(data.signedTransactionInfo == "signed_transaction_info_value")
        #expect(data.signedRenewalInfo == "signed_renewal_info_value")
        #expect(data.status == .active)
        #expect(data.consumptionRequestReason == .unintendedPurchase)
    }

    @Test("a summary notification decodes")
    func summary() throws {
        let notification = try Self.decode("signedSummaryNotification.json")
        #expect(notification.notificationType == .renewalExtension)
        #expect(notification.subtype == .summary)
        let summary = try #require(notification.summary)
        #expect(summary.requestIdentifier == "efb27071-45a4-4aca-9854-2a1e9146f265")
        #expect(summary.storefrontCountryCodes == ["CAN", "USA", "MEX"])
        #expect(summary.succeededCount == 5)
        #expect(summary.failedCount == 2)
        #expect(summary.productId == "com.example.product")
    }

    @Test("an external purchase token notification decodes, with its environment from the token")
    func externalPurchaseToken() throws {
        let notification = try Self.decode("signedExternalPurchaseTokenNotification.json")
        #expect(notification.notificationType == .externalPurchaseToken)
        #expect(notification.subtype == .unreported)
        let token = try #require(notification.externalPurchaseToken)
        #expect(token.externalPurchaseId == "b2158121-7af9-49d4-9561-1f588205523e")
        #expect(token.tokenCreationDate == Date(timeIntervalSince1970: 1_698_148_950))
        #expect(token.appAppleId == 55555)
        #expect(token.environment == .production)
        #expect(ExternalPurchaseToken(externalPurchaseId: "SANDBOX_abc").environment == .sandbox)
    }

    @Test("a custom link token created: the CREATED subtype, the token's type and expiry; an expiry out of range is caught")
    func externalPurchaseTokenCreated() throws {
        let json = #"""
            {"notificationType":"EXTERNAL_PURCHASE_TOKEN","subtype":"CREATED","notificationUUID":"0a1b","version":"2.0","signedDate":1767225600000,
             "externalPurchaseToken":{"externalPurchaseId":"SANDBOX_5e4d","tokenCreationDate":1767225600000,"appAppleId":55555,
             "bundleId":"com.example","tokenType":"LINK_OUT","tokenExpirationDate":1767830400000}}
            """#
        let notification = try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(json.utf8))
        #expect(notification.subtype == .created && notification.subtype?.name == "CREATED")
        let token = try #require(notification.externalPurchaseToken)
        #expect(token.tokenType == .linkOut && token.tokenType?.isKnown == true)
        #expect(token.tokenExpirationDate == Date(timeIntervalSince1970: 1_767_830_400))
        #expect(token.environment == .sandbox && notification.outOfRangeValue == nil)
        var far = notification
        far.externalPurchaseToken?.tokenExpirationDate = Date(timeIntervalSince1970: 1e12)
        #expect(far.outOfRangeValue?.field == "notification.externalPurchaseToken.tokenExpirationDate")
    }

    @Test("a RESCIND_CONSENT notification carries app data")
    func appData() throws {
        let notification = try Self.decode("signedRescindConsentNotification.json")
        #expect(notification.notificationType == .rescindConsent)
        #expect(notification.appData?.signedAppTransactionInfo == "signed_app_transaction_info_value")
        #expect(notification.appData?.environment == .localTesting)
    }

    @Test("all 23 notification types are known, and an unknown one still decodes")
    func types() throws {
        #expect(NotificationTypeV2.documented.count == 23)
        let future = try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: Data(#"{"notificationType":"SOMETHING_NEW","subtype":"NEWER"}"#.utf8))
        #expect(future.notificationType?.rawValue == "SOMETHING_NEW")
        #expect(future.notificationType?.isKnown == false)
        #expect(future.subtype?.isKnown == false)
    }
}
