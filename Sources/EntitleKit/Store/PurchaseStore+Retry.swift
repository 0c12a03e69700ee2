import Foundation

extension PurchaseStore {
    /// The products among `ids`, asked again when the store can't be reached: `attempts` tries in all,
    /// waiting `backoff`, then twice as long, between them (seed 001: three tries, 2 s then 4 s). A
    /// refusal that a retry can't change (a product not on sale, payments not allowed) is thrown at once.
    /// - Parameters:
    ///   - ids: the products' identifiers.
    ///   - attempts: how many times to ask in all.
    ///   - backoff: the first wait; each next one doubles.
    ///   - sleep: how to wait (the clock is an input: tests pass their own).
    public func products(
        _ ids: [String], attempts: Int, backoff: Duration = .seconds(2),
        sleep: @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
    ) async throws(StoreFailure) -> [StoreProduct] {
        var delay = backoff
        var attempt = 1
        while true {
            do {
                return try await products(ids)
            } catch where error.kind == .storeUnavailable && attempt < max(attempts, 1) {
                do {
                    try await sleep(delay)
                } catch {
                    throw StoreFailure(.storeUnavailable, "cancelled while waiting to ask the store again")
                }
                attempt += 1
                delay *= 2
            }
        }
    }
}
