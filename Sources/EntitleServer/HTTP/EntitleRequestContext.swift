import EntitleWire
import Foundation
import Hummingbird

/// The request context of every route: Hummingbird's core storage, who the API key belongs to, and
/// JSON coders for the API's wire types (ISO 8601 dates).
public struct EntitleRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by the authentication middleware.
    public var identity: APIKeys.Identity?
    /// The app the request is for, set by the app selection middleware.
    var app: SubscriptionService?
    /// Whether that app is the server's primary app.
    var isPrimaryApp = true
    var bodyLimit: Int

    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
        app = nil
        bodyLimit = 1024 * 1024
    }

    /// The service of the app the request is for.
    var service: SubscriptionService {
        get throws(ServiceError) {
            guard let app else { throw ServiceError(.internalError, "the route has no app selection") }
            return app
        }
    }

    public var maxUploadSize: Int { bodyLimit }

    public var requestDecoder: JSONDecoder { WireJSON.decoder }

    public var responseEncoder: JSONEncoder { WireJSON.encoder }
}
