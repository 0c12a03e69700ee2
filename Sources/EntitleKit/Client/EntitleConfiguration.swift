import EntitleAPI
import Foundation

/// How an app reaches its Entitle server, and where it keeps what works offline.
public struct EntitleConfiguration: Sendable {
    public var serverURL: URL
    /// The app key (`ak_…`, safe to ship in the app), or a subscriber's public key.
    public var apiKey: String
    /// The server's Ed25519 public key (base64url, as `GET /v1/signing-key` shows it): cached customer
    /// info is kept and trusted only when the server signed it with this key.
    public var serverPublicKey: String
    /// The folder for the cache, the anonymous ID and the usage queue (Application Support/Entitle on
    /// Apple platforms by default).
    public var cacheFolder: URL
    /// How long cached customer info may stand in for the server at most, whatever its entitlements say.
    public var maximumCacheAge: TimeInterval
    /// The app, for a server that serves several and a key that doesn't name one.
    public var app: String?
    public var transport: any HTTPTransport
    /// The App Store: StoreKit on Apple platforms, the local App Store elsewhere; `nil` when the app
    /// only reads entitlements.
    public var store: (any PurchaseStore)?
    /// How many times a transaction is sent again when the server can't be reached, and the first
    /// wait (doubled each time, with jitter).
    public var submitRetries: Int = 3
    public var retryDelay: Duration = .milliseconds(500)
    /// The device clock (an input, so tests can set it back).
    public var now: @Sendable () -> Date

    public init(
        serverURL: URL, apiKey: String, serverPublicKey: String, cacheFolder: URL = EntitleConfiguration.defaultCacheFolder,
        maximumCacheAge: TimeInterval = 7 * 86_400, app: String? = nil, transport: any HTTPTransport = URLSessionTransport(),
        store: (any PurchaseStore)? = nil, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.serverURL = serverURL
        self.apiKey = apiKey
        self.serverPublicKey = serverPublicKey
        self.cacheFolder = cacheFolder
        self.maximumCacheAge = maximumCacheAge
        self.app = app
        self.transport = transport
        self.now = now
    }

    /// Application Support/Entitle where the platform has it, else ./entitle-cache.
    public static var defaultCacheFolder: URL {
        if let support = FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first {
            return support.appendingPathComponent("Entitle", isDirectory: true)
        }
        return URL(fileURLWithPath: "entitle-cache", isDirectory: true)
    }
}
