import Foundation

/// What importing each customer of an ``ImportCustomersRequest`` did, in its order.
public struct ImportCustomersResponse: Codable, Hashable, Sendable {
    public var results: [ImportResult]

    public init(results: [ImportResult]) {
        self.results = results
    }
}

/// One customer's import.
public struct ImportResult: Codable, Hashable, Sendable {
    public var appUserID: String
    /// The transaction ID Apple's history was asked for: the one given, or the receipt's that Apple knew
    /// (`""` when none).
    public var transactionID: String
    /// `imported` (Apple's history recorded for them; again, nothing twice), `not_found` (Apple knows no
    /// such transaction), `owned_by_another` (their purchases belong to another subscriber here: kept
    /// there), or `invalid` (an ID that can't be one).
    public var outcome: String
    /// Transactions Apple's history gave (each recorded once, whatever the runs).
    public var transactions: Int
    /// Purchases (original transaction IDs) now theirs.
    public var purchases: Int
    public var message: String?

    public init(appUserID: String, transactionID: String, outcome: String, transactions: Int = 0, purchases: Int = 0, message: String? = nil) {
        self.appUserID = appUserID
        self.transactionID = transactionID
        self.outcome = outcome
        self.transactions = transactions
        self.purchases = purchases
        self.message = message
    }
}
