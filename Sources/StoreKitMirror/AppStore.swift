#if !canImport(StoreKit)
import Foundation

/// https://developer.apple.com/documentation/storekit/appstore
/// `enum AppStore` — iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum AppStore {
    /// https://developer.apple.com/documentation/storekit/appstore/sync()
    /// `static func sync() async throws`
    public static func sync() async throws {
        try await StoreKitMirrorRuntime.backend().sync()
    }

    /// https://developer.apple.com/documentation/storekit/appstore/showmanagesubscriptions(in:)
    /// `@MainActor static func showManageSubscriptions(in scene: UIWindowScene) async throws` — iOS 15.0,
    /// Mac Catalyst 15.0, visionOS 1.0.
    @available(iOS 15.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func showManageSubscriptions(in scene: UIWindowScene) async throws {
        try await StoreKitMirrorRuntime.backend().showManageSubscriptions(subscriptionGroupID: nil)
    }

    /// https://developer.apple.com/documentation/storekit/appstore/showmanagesubscriptions(in:subscriptiongroupid:)
    /// `@MainActor static func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupID: String) async throws` — iOS 17.0.
    @available(iOS 17.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func showManageSubscriptions(in scene: UIWindowScene, subscriptionGroupID: String) async throws {
        try await StoreKitMirrorRuntime.backend().showManageSubscriptions(subscriptionGroupID: subscriptionGroupID)
    }

    /// https://developer.apple.com/documentation/storekit/appstore/presentoffercoderedeemsheet(in:)
    /// `@MainActor static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws` — iOS 16.0,
    /// Mac Catalyst 16.0, visionOS 1.0.
    @available(iOS 16.0, visionOS 1.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    @MainActor
    public static func presentOfferCodeRedeemSheet(in scene: UIWindowScene) async throws {
        try await StoreKitMirrorRuntime.backend().presentOfferCodeRedeemSheet()
    }
}
#endif
