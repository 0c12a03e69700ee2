import AppStoreModels

extension JWSTransactionDecodedPayload {
    /// The purchase chain the transaction belongs to: its original transaction ID, or its own ID when
    /// it is the first of its chain (or a one-time purchase Apple signed without one).
    public var purchaseChain: OriginalTransactionID? {
        (originalTransactionId ?? transactionId).map { OriginalTransactionID($0) }
    }
}

extension JWSRenewalInfoDecodedPayload {
    /// The purchase chain the renewal info is about.
    public var purchaseChain: OriginalTransactionID? { originalTransactionId.map { OriginalTransactionID($0) } }
}
