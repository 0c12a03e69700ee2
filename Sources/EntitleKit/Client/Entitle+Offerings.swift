import EntitleAPI
import EntitleWire
import Foundation

extension Entitle {
    /// The offerings as this user's paywall shows them: the current one is what the server serves them
    /// (a running experiment's variant, which enrols them the first time, else the catalog's targeting,
    /// else its default). Fetched once per instance and user, and from the last copy on disk when the
    /// server can't be reached.
    /// - Parameters:
    ///   - storefront: the device's App Store storefront (StoreKit's `Storefront.countryCode`), for targeting.
    ///   - appVersion: the app's version (`CFBundleShortVersionString`), for targeting.
    public func offerings(storefront: String? = nil, appVersion: String? = nil) async throws(EntitleError) -> Offerings {
        if let offeringsCache, offeringsCache.appUserID == appUserID { return offeringsCache.offerings }
        let file = configuration.cacheFolder.appendingPathComponent("offerings.json")
        do {
            let fetched = try await api.subscriberOfferings(appUserID, storefront: storefront, appVersion: appVersion)
            let offerings = Offerings(fetched)
            offeringsCache = (appUserID, offerings)
            if let data = try? WireJSON.encoder.encode(CachedOfferings(appUserID: appUserID, offerings: fetched)) {
                try? FileManager.default.createDirectory(at: configuration.cacheFolder, withIntermediateDirectories: true)
                try? data.write(to: file, options: .atomic)
            }
            return offerings
        } catch where error.code == .network {
            if let data = try? Data(contentsOf: file), let cached = try? WireJSON.decoder.decode(CachedOfferings.self, from: data),
                cached.appUserID == appUserID
            {
                return Offerings(cached.offerings)
            }
            throw Self.error(error)
        } catch {
            throw Self.error(error)
        }
    }
}
