#if !canImport(StoreKit)
import Foundation

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension Transaction {
    /// https://developer.apple.com/documentation/storekit/transaction/transactions
    /// `struct Transactions: AsyncSequence` of `VerificationResult<Transaction>`.
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>
        private let stream: AsyncStream<Element>

        init(_ stream: AsyncStream<Element>) { self.stream = stream }

        /// The mirror's own: the backend's signed transactions at the time of iteration.
        init(_ read: @escaping @Sendable (any StoreKitMirrorBackend) async -> [StoreKitMirrorSigned]) {
            self.stream = AsyncStream { continuation in
                let task = Task {
                    if let backend = StoreKitMirrorRuntime.backendIfInstalled {
                        for item in await read(backend) {
                            if let result = VerificationResult<Transaction>(item) { continuation.yield(result) }
                        }
                    }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }

        public struct AsyncIterator: AsyncIteratorProtocol {
            var base: AsyncStream<Element>.Iterator
            public mutating func next() async -> Element? { await base.next() }
        }

        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(base: stream.makeAsyncIterator()) }
    }

    /// https://developer.apple.com/documentation/storekit/transaction/ownershiptype-swift.struct
    public struct OwnershipType: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public static let purchased = OwnershipType(rawValue: "PURCHASED")
        public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    }

    /// https://developer.apple.com/documentation/storekit/transaction/revocationreason-swift.struct
    public struct RevocationReason: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }
        public static let other = RevocationReason(rawValue: 0)
        public static let developerIssue = RevocationReason(rawValue: 1)
    }

    /// https://developer.apple.com/documentation/storekit/transaction/refundrequeststatus
    /// `enum RefundRequestStatus` — the status of the request, not of the refund.
    public enum RefundRequestStatus: Sendable, Hashable {
        case userCancelled
        case success
    }

    /// https://developer.apple.com/documentation/storekit/transaction/refundrequesterror
    public enum RefundRequestError: Error, Sendable, Hashable {
        case duplicateRequest
        case failed
    }
}
#endif
