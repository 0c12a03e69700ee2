import EntitleWire
import Foundation
import Hummingbird

/// The request context of every route: Hummingbird's core storage, who the API key belongs to, and
/// JSON coders for the API's wire types (ISO 8601 dates).
public struct EntitleRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by the authentication middleware.
    public var identity: APIKeys.Identity?
    var bodyLimit: Int

    public init(source: Source) {
        coreContext = .init(source: source)
        identity = nil
        bodyLimit = 1024 * 1024
    }

    public var maxUploadSize: Int { bodyLimit }

    public var requestDecoder: JSONDecoder { WireJSON.decoder }

    public var responseEncoder: JSONEncoder { WireJSON.encoder }
}
