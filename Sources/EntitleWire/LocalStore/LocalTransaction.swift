import Foundation

/// A transaction the local App Store signed, as StoreKit hands one to an app.
public struct LocalTransaction: Codable, Hashable, Sendable {
    public var signedTransaction: String
    public var transactionID: String
    public var productID: String

    public init(signedTransaction: String, transactionID: String, productID: String) {
        self.signedTransaction = signedTransaction
        self.transactionID = transactionID
        self.productID = productID
    }
}
