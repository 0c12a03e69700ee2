import AppStoreModels
import EntitleCore
import FastJSON
import Foundation
import HTTPTypes

/// The apps one server serves, each with its own services (AppServices: ingestion, subscribers, admin, webhooks…) over its part of the ledger.
/// The first is the primary app: it adopted the rows written before apps existed, and its public keys
/// are derived as they were then.
public final class ServedApps: Sendable {
    /// In configuration order.
    public let services: [AppServices]
    private let byBundleID: [BundleID: AppServices]

    /// The request header that names the app when a server serves several.
    public static let header = HTTPField.Name.entitleApp

    init(services: [AppServices]) {
        precondition(!services.isEmpty, "a server serves at least one app")
        self.services = services
        byBundleID = Dictionary(services.map { ($0.bundleID, $0) }, uniquingKeysWith: { first, _ in first })
    }

    public var primary: AppServices { services[0] }

    public func service(bundleID: BundleID) -> AppServices? { byBundleID[bundleID] }

    /// The app a request is for: the one the `Entitle-App` header names, or the only one served.
    func service(named header: String?) throws(ServiceError) -> AppServices {
        guard let header else {
            guard services.count == 1 else {
                throw ServiceError(
                    .unknownApp,
                    "this server serves \(services.count) apps (\(services.map(\.bundleID.rawValue).joined(separator: ", "))): name one with the Entitle-App header")
            }
            return primary
        }
        guard let service = byBundleID[BundleID(header)] else {
            throw ServiceError(.unknownApp, "\(header) is not an app this server serves")
        }
        return service
    }

    /// The app a signed notification is for, by the bundle ID in its payload, before verification:
    /// that app's verifiers then check the signature and the bundle ID itself. A payload naming no
    /// app of this server goes to the primary app, whose verifiers refuse it.
    func service(forSignedNotification signedPayload: String) -> AppServices {
        guard services.count > 1 else { return primary }
        return AppStoreNotificationBody.bundleID(ofSignedPayload: signedPayload).flatMap { byBundleID[BundleID($0)] } ?? primary
    }

    /// The app a real-time retention request is for: it names no bundle, only the App Apple ID, matched
    /// against each app's catalog (`appAppleID`), before verification; the primary app otherwise.
    func service(forRealtimeRequest signedPayload: String) -> AppServices {
        guard services.count > 1, let id = AppStoreNotificationBody.appAppleID(ofSignedPayload: signedPayload) else { return primary }
        return services.first { $0.catalog.appAppleID == id } ?? primary
    }
}
