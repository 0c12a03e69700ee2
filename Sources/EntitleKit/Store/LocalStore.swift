import EntitleAPI
import EntitleWire
import Foundation

/// The App Store on Linux and in tests: Entitle's local App Store, over HTTP (the one `entitle demo`
/// serves at `/local-store/v1`). Its transactions are signed like Apple's, by the local authority the
/// server trusts, and it sends the server its notifications; EntitleKit links none of its certificate code.
public struct LocalStore: PurchaseStore {
    public let storeURL: URL
    public let bundleID: String
    /// The store account (an Apple ID, in effect): a second device of the same account restores its purchases.
    public let account: String
    let transport: any HTTPTransport
    /// How often transaction updates are asked for.
    let pollInterval: Duration

    public init(
        storeURL: URL, bundleID: String, account: String, transport: any HTTPTransport = URLSessionTransport(), pollInterval: Duration = .seconds(5)
    ) {
        self.storeURL = storeURL
        self.bundleID = bundleID
        self.account = account
        self.transport = transport
        self.pollInterval = pollInterval
    }

    private var base: String { "/local-store/v1/" + (bundleID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: ".-_"))) ?? bundleID) }

    public func purchase(_ productID: String, options: PurchaseOptions) async throws(StoreFailure) -> StorePurchaseResult {
        let body: Data
        do {
            let offer = options.promotionalOffer.map {
                LocalPromotionalOffer(offerID: $0.offerID, keyID: $0.keyID, nonce: $0.nonce, timestamp: $0.timestamp, signature: $0.signature)
            }
            body = try WireJSON.encoder.encode(
                LocalPurchaseRequest(
                    productID: productID, account: account, appAccountToken: options.appAccountToken, promotionalOffer: offer,
                    introductoryOfferEligibility: options.introductoryOfferEligibility, winBackOfferID: options.winBackOfferID))
        } catch {
            throw StoreFailure(.storeUnavailable, "the purchase does not encode: \(error)")
        }
        let response = try await send(APIRequest(method: "POST", path: base + "/purchases", headers: ["Content-Type": "application/json"], body: body))
        guard response.status == 200 else {
            let error = try? WireJSON.decoder.decode(ErrorResponse.self, from: response.body).error
            throw StoreFailure(.productUnavailable, error?.message ?? "the local store answered \(response.status)")
        }
        guard let transaction = try? WireJSON.decoder.decode(LocalTransaction.self, from: response.body) else {
            throw StoreFailure(.verificationFailed, "the local store's answer is not a transaction")
        }
        return .purchased(SignedTransaction(jws: transaction.signedTransaction, transactionID: transaction.transactionID, productID: transaction.productID))
    }

    public func products(_ ids: [String]) async throws(StoreFailure) -> [StoreProduct] {
        let response = try await send(APIRequest(method: "GET", path: base + "/products"))
        guard response.status == 200, let products = try? WireJSON.decoder.decode([LocalProduct].self, from: response.body) else {
            throw StoreFailure(.storeUnavailable, "the local store answered \(response.status)")
        }
        return products.filter { ids.contains($0.productID) }.map { StoreProduct(id: $0.productID, displayName: $0.displayName, displayPrice: $0.displayPrice) }
    }

    /// The local store keeps nothing unfinished.
    public func finish(_ transaction: SignedTransaction) async {}

    /// The account's transactions that changed outside a purchase (refunds), asked for every
    /// `pollInterval`; those already there when the stream starts are delivered too, as StoreKit hands
    /// over what changed while the app was closed (the server takes each version once).
    public func transactionUpdates() -> AsyncStream<SignedTransaction> {
        let account = account.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? account
        let (path, interval) = (base + "/updates?account=" + account, pollInterval)
        let (storeURL, transport) = (storeURL, transport)
        return AsyncStream { continuation in
            let task = Task {
                var seen = 0
                while !Task.isCancelled {
                    if let response = try? await transport.send(APIRequest(method: "GET", path: path + "&after=\(seen)"), to: storeURL, timeout: .seconds(30)),
                        response.status == 200, let updates = try? WireJSON.decoder.decode([LocalTransaction].self, from: response.body)
                    {
                        for update in updates {
                            continuation.yield(SignedTransaction(jws: update.signedTransaction, transactionID: update.transactionID, productID: update.productID))
                        }
                        seen += updates.count
                    }
                    try? await Task.sleep(for: interval)
                }
                continuation.finish()
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    public func currentEntitlements() async throws(StoreFailure) -> [SignedTransaction] {
        let account = account.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? account
        let response = try await send(APIRequest(method: "GET", path: base + "/transactions?account=" + account))
        guard response.status == 200, let transactions = try? WireJSON.decoder.decode([LocalTransaction].self, from: response.body) else {
            throw StoreFailure(.storeUnavailable, "the local store answered \(response.status)")
        }
        return transactions.map { SignedTransaction(jws: $0.signedTransaction, transactionID: $0.transactionID, productID: $0.productID) }
    }

    public func sync() async throws(StoreFailure) {}

    private func send(_ request: APIRequest) async throws(StoreFailure) -> APIResponse {
        do {
            return try await transport.send(request, to: storeURL, timeout: .seconds(30))
        } catch {
            throw StoreFailure(.storeUnavailable, error.message)
        }
    }
}
