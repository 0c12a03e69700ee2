import Foundation

/// `POST /v1/transactions/{transactionID}/finish`: Apple took the server's word that it delivered what the
/// transaction bought (Finish Transaction).
public struct FinishTransactionResponse: Codable, Hashable, Sendable {
    public var transactionID: String
    public var finished: Bool

    public init(transactionID: String, finished: Bool) {
        self.transactionID = transactionID
        self.finished = finished
    }
}
