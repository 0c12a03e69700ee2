import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation

/// Signed payloads as Apple sends them, signed by a test PKI: a notification carrying its signed
/// transaction and renewal info (three JWS, each with the whole chain), and a transaction alone.
struct SignedPayloadSamples {
    let pki: TestPKI
    let apple = AppleFacts()

    init() throws { pki = try TestPKI() }

    func transaction(_ original: String, period: Int) -> JWSTransactionDecodedPayload {
        apple.subscription(
            "com.example.monthly", original: original, id: "\(original)-\(period)", purchase: ISODuration(months: period).added(to: ReferenceTime.start),
            expires: ISODuration(months: period + 1).added(to: ReferenceTime.start), reason: period == 0 ? .purchase : .renewal)
    }

    func signedNotification(_ original: String, period: Int, uuid: UUID) throws -> String {
        let transaction = transaction(original, period: period)
        let renewal = apple.renewal(original: original, product: "com.example.monthly", signed: transaction.purchaseDate ?? ReferenceTime.start)
        let body: [String: Any] = [
            "notificationType": period == 0 ? "SUBSCRIBED" : "DID_RENEW", "notificationUUID": uuid.uuidString.lowercased(), "version": "2.0",
            "signedDate": Int((transaction.purchaseDate ?? ReferenceTime.start).timeIntervalSince1970 * 1000),
            "data": [
                "bundleId": apple.bundleID, "environment": "Sandbox", "status": 1,
                "signedTransactionInfo": pki.sign(transaction), "signedRenewalInfo": pki.sign(renewal),
            ] as [String: Any],
        ]
        return pki.sign(payload: try JSONSerialization.data(withJSONObject: body))
    }

    /// A subscriber's year as stored events, each with the signed payload it came in.
    func events(user: AppUserID, original: String, periods: Int) throws -> [LedgerEvent] {
        var events: [LedgerEvent] = []
        for period in 0..<periods {
            var event = LedgerEvents.notification(
                period + 1, appUserID: user, type: period == 0 ? .subscribed : .didRenew, transaction: transaction(original, period: period))
            event.rawSignedPayload = try signedNotification(original, period: period, uuid: event.id)
            events.append(event)
        }
        var submitted = LedgerEvents.appTransaction(100, appUserID: user, transaction(original, period: 0))
        submitted.rawSignedPayload = pki.sign(transaction(original, period: 0))
        events.append(submitted)
        return events
    }
}
