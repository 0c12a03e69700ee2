import Foundation

/// How `ledger_events.event` keeps an event's JSON: deflated with a dictionary of the ledger's own keys
/// and Apple's, as text (``prefix`` and standard base64), when that is shorter; as written otherwise
/// (JSON always starts with `{`, so a stored value starting with `~` is the compact form). Every reader
/// of events goes through ``StoredJSON``, which expands it; SQL never reads inside the JSON.
enum StoredEventJSON {
    static let prefix = "~1"
    /// What an event's JSON may expand to at most; more is a corrupt record.
    static let expandedLimit = 4 << 20
    /// Shorter JSON is stored as written: the base64 and the checksum would outweigh the saving.
    static let smallest = 160

    /// Text that itself starts with ``prefix`` (never JSON) is always stored compact, so that every text
    /// reads back as written.
    static func compact(_ json: String) -> String {
        let bytes = Array(json.utf8)
        let ambiguous = json.hasPrefix(prefix)
        guard bytes.count >= smallest || ambiguous, let deflated = Deflate.compress(bytes, dictionary: dictionary) else { return json }
        let stored = prefix + Data(deflated).base64EncodedString()
        return stored.utf8.count < bytes.count || ambiguous ? stored : json
    }

    /// The JSON `stored` keeps; `nil` when it is a compact form that does not read back.
    static func expand(_ stored: String) -> String? {
        guard stored.hasPrefix(prefix) else { return stored }
        guard let deflated = Data(base64Encoded: String(stored.dropFirst(prefix.count))),
            let json = Deflate.decompress(deflated.bytes, dictionary: dictionary, limit: expandedLimit), !json.isEmpty
        else { return nil }
        return String(decoding: json, as: UTF8.self)
    }

    /// Part of the stored format `~1`: changing a byte makes every compact event unreadable, so a new
    /// dictionary needs a new prefix. The least frequent first (deflate reaches the end of the
    /// dictionary with the shortest distances).
    static let dictionary: [UInt8] = Array(#"""
        {"usage":{"_0":{"amount":1,"at":"feature":"idempotencyKey":"item":{"_0":{"action":"register","at":"itemID":"limit":"name":"householdJoined":{"at":"householdID":"appTrialStarted":{"at":"grant":{"override":{"paywall":{"attributesSet":{"login","admin","items","restore","usage","app_trial_start","revocationDate":"revocationReason":"isUpgraded":true,"offerDiscountType":"FREE_TRIAL","offerType":1,"expirationIntent":"gracePeriodExpiresDate":"isInBillingRetryPeriod":false,"priceIncreaseStatus":"eligibleWinBackOfferIds":["renewalDate":"recentSubscriptionStartDate":"renewalPrice":"subtype":"AUTO_RENEW_DISABLED","VOLUNTARY","INITIAL_BUY","type":"EXPIRED","REFUND","DID_CHANGE_RENEWAL_STATUS","SUBSCRIBED","DID_RENEW"},"appAccountToken":"appTransactionId":"app_transaction","transaction":{"_0":{"renewalInfo":{"_0":{"autoRenewProductId":"autoRenewStatus":1,"currency":"USD","environment":"Sandbox","originalTransactionId":"productId":"signedDate":{"appAccountToken":"bundleId":"currency":"USD","environment":"Production","expiresDate":"inAppOwnershipType":"PURCHASED","originalPurchaseDate":"originalTransactionId":"price":"productId":"purchaseDate":"quantity":1,"signedDate":"storefront":"USA","storefrontId":"143441","subscriptionGroupIdentifier":"transactionId":"transactionReason":"RENEWAL","type":"Auto-Renewable Subscription","webOrderLineItemId":"},"type":"DID_RENEW"}},"receivedAt":"signedDate":"source":"app_store_notification","transactionID":"{"appUserID":"id":"idempotencyKey":"notification:","notificationUUID":"originalTransactionID":"payload":{"notification":{"renewalInfo":{"autoRenewProductId":"com.
        """#.utf8)
}
