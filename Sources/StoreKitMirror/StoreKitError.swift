#if !canImport(StoreKit)
import Foundation

/// https://developer.apple.com/documentation/storekit/storekiterror
/// `enum StoreKitError: Error` — iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    /// https://developer.apple.com/documentation/storekit/storekiterror/unsupported — iOS 18.4.
    case unsupported
}
#endif
