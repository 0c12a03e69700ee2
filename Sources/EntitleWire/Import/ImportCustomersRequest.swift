import Foundation

/// `POST /v1/imports/customers`: customers of an app moving in, each named by its app user ID and any of
/// its transaction or original transaction IDs; the server asks Apple for their history (docs/import.md).
public struct ImportCustomersRequest: Codable, Hashable, Sendable {
    public var customers: [ImportCustomer]

    public init(customers: [ImportCustomer]) {
        self.customers = customers
    }

    /// The most customers one request imports.
    public static let largest = 100
}

/// One customer to import: their app user ID, and a transaction ID or an app receipt of theirs.
public struct ImportCustomer: Codable, Hashable, Sendable {
    public var appUserID: String
    /// Any transaction ID or original transaction ID of theirs.
    public var transactionID: String?
    /// Their app receipt (base64, Apple's deprecated format), when the app kept receipts rather than
    /// transaction IDs: the server reads its transaction IDs and asks Apple for the history of the first
    /// one Apple knows.
    public var receipt: String?

    public init(appUserID: String, transactionID: String? = nil, receipt: String? = nil) {
        self.appUserID = appUserID
        self.transactionID = transactionID
        self.receipt = receipt
    }
}
