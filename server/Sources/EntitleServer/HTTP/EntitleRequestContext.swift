import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Hummingbird

/// The request context of every route: Hummingbird's core storage, who the API key belongs to, and
/// JSON coders for the API's wire types (ISO 8601 dates).
public struct EntitleRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by the authentication middleware.
    public var identity: APIKeys.Identity?
    /// Who an operator's request is from, for the audit log: `key:<id> (<name>)` for a stored secret key,
    /// `secret:<fingerprint>` for a configured one; `nil` for apps and subscribers. Set by the
    /// authentication middleware.
    var actor: String?
    /// The dashboard's signed-in person's role (an owner's for a secret key's session), set by its session middleware.
    var dashboardRole: DashboardRole?
    /// The signed-in person's account (`nil` for a secret key's session).
    var dashboardAccountID: String?
    /// The app the request is for, set by the app selection middleware.
    var app: AppServices?
    /// Whether that app is the server's primary app.
    var isPrimaryApp = true
    /// The `Entitle-App` header as sent.
    var appHeader: String?
    /// Signs subscriber answers (set on the routes that answer them).
    var signer: CustomerInfoSigner?
    /// The dashboard shows every app together (its switcher's "All apps").
    var allApps = false
    var bodyLimit: Int
    /// The TCP peer's IP address (`nil` where there is no socket, as in the router's tests).
    let peerAddress: String?

    public init(source: Source) {
        coreContext = .init(source: source)
        peerAddress = source.channel.remoteAddress?.ipAddress
        identity = nil
        app = nil
        bodyLimit = 1024 * 1024
    }

    /// The services of the app the request is for.
    var services: AppServices {
        get throws(ServiceError) {
            guard let app else { throw ServiceError(.internalError, "the route has no app selection") }
            return app
        }
    }

    public var maxUploadSize: Int { bodyLimit }

    public var requestDecoder: JSONDecoder { WireJSON.decoder }

    public var responseEncoder: JSONEncoder { WireJSON.encoder }
}

extension EntitleRequestContext {
    /// A subscriber ID from the path (`appUserID`, `memberID`), percent-decoded: `a%20b` and `a b`,
    /// `%C3%A9` and `é` (in any Unicode normalization) reach the same subscriber. Refused with a 400
    /// that says which rule it breaks.
    func subscriberID(_ name: String = "appUserID") throws(ServiceError) -> AppUserID {
        guard let raw = parameters.get(name) else { throw ServiceError(.notFound, "no \(name) in the path") }
        return try Self.decodeSubscriberID(raw)
    }

    static func decodeSubscriberID(_ raw: some StringProtocol) throws(ServiceError) -> AppUserID {
        // Without a `%` there is nothing to decode.
        guard raw.utf8.contains(UInt8(ascii: "%")) else { return try normalizeSubscriberID(String(raw)) }
        guard let decoded = String(raw).removingPercentEncoding else {
            throw ServiceError(.invalidAppUserID, "the app user ID is not valid percent-encoding (a % must be followed by two hex digits)")
        }
        return try normalizeSubscriberID(decoded)
    }

    /// A subscriber ID from a body or a query parameter (not percent-encoded): NFC, then the ID rules.
    static func normalizeSubscriberID(_ text: String) throws(ServiceError) -> AppUserID {
        // ASCII text is its own NFC.
        let id = AppUserID(text.utf8.allSatisfy({ $0 < 0x80 }) ? text : text.precomposedStringWithCanonicalMapping)
        try InputRules.validate(id)
        return id
    }
}
