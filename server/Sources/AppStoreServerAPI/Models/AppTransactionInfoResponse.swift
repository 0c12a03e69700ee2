import Foundation

/// Get App Transaction Info: the customer's app transaction, signed.
///
/// [AppTransactionInfoResponse](https://developer.apple.com/documentation/appstoreserverapi/apptransactioninforesponse)
public struct AppTransactionInfoResponse: Codable, Hashable, Sendable {
    public var signedAppTransactionInfo: String?

    public init(signedAppTransactionInfo: String?) {
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
