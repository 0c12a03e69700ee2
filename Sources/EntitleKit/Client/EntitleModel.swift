import Foundation
import Observation

/// The customer info as a SwiftUI view binds to it: an `@Observable` model on the main actor that follows
/// ``Entitle/customerInfoUpdates()`` — every fetch, purchase, restore, log-in and refused use — so a view
/// that reads ``customerInfo`` or ``isActive(_:)`` redraws when the answer changes.
///
/// ```swift
/// @State private var model = EntitleModel(entitle)
/// var body: some View {
///     content.task { await model.start() }
///     if model.isActive("premium") { PremiumView() } else { PaywallView() }
/// }
/// ```
@available(iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *)
@MainActor
@Observable
public final class EntitleModel {
    /// The latest customer info (from the server, or the signed cache offline); `nil` until the first.
    public private(set) var customerInfo: CustomerInfo?
    /// Why the last fetch this model asked for failed, if it did (cleared by the next answer).
    public private(set) var lastError: EntitleError?

    public let entitle: Entitle
    @ObservationIgnored private var following: Task<Void, Never>?

    public init(_ entitle: Entitle) {
        self.entitle = entitle
    }

    /// Follows the customer info's updates, then asks for the current one (cached or fetched); returns at
    /// once when already following. Call it from a view's `.task`; ``stop()`` ends it.
    public func start() async {
        guard following == nil else { return }
        // Set before any suspension: a second start() meanwhile returns at once.
        following = Task { [weak self, entitle] in
            for await info in await entitle.customerInfoUpdates() {
                guard let self else { return }
                self.customerInfo = info
                self.lastError = nil
            }
        }
        await refresh(fetchPolicy: .cachedOrFetched)
    }

    /// Stops following the updates.
    public func stop() {
        following?.cancel()
        following = nil
    }

    /// Asks for the customer info by `fetchPolicy`; the answer, or the error, is published.
    public func refresh(fetchPolicy: FetchPolicy = .fetchCurrent) async {
        do {
            customerInfo = try await entitle.customerInfo(fetchPolicy: fetchPolicy)
            lastError = nil
        } catch {
            lastError = error
        }
    }

    /// Whether the entitlement `id` is active now (the configuration's clock), by the latest customer info.
    public func isActive(_ id: String) -> Bool {
        guard let customerInfo else { return false }
        return customerInfo.isActive(id, at: entitle.configuration.now())
    }
}
