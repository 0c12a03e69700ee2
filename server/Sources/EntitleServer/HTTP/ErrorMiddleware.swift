import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Turns every failure into the API's error body, with a stable code: Hummingbird's own errors
/// (unknown route, body too large, undecodable JSON) included. Nothing else — no stack trace, no
/// internal detail — ever reaches the client.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    /// The methods of every route, to tell an undeclared method (405) from an unknown path (404).
    let routes: RouteMethods

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as ServiceError {
            throw APIError(error: error)
        } catch let error as HTTPError {
            if error.status == .notFound, let methods = routes.methods(forPath: request.uri.path), !methods.contains(request.method) {
                throw APIError(
                    error: ServiceError(.methodNotAllowed, "\(request.method) is not allowed here"),
                    allow: methods.map(\.rawValue).joined(separator: ", "))
            }
            throw APIError(error: Self.map(error))
        } catch is NIOTooManyBytesError {
            throw APIError(error: ServiceError(.bodyTooLarge, "the request body is over the limit"))
        } catch let error as DecodingError {
            throw APIError(error: ServiceError(.invalidRequest, "the request body is not the expected JSON: \(Self.describe(error))"))
        } catch {
            context.logger.error("unexpected error", metadata: ["error.type": "\(type(of: error))"])
            throw APIError(error: ServiceError(.internalError, "an internal error occurred"))
        }
    }

    static func map(_ error: HTTPError) -> ServiceError {
        switch error.status {
        case .notFound: ServiceError(.notFound, "no such route")
        case .contentTooLarge: ServiceError(.bodyTooLarge, "the request body is over the limit")
        case .methodNotAllowed: ServiceError(.methodNotAllowed, "method not allowed")
        case .unsupportedMediaType: ServiceError(.unsupportedMediaType, error.body ?? "unsupported media type")
        case let status where (400..<500).contains(status.code): ServiceError(.invalidRequest, error.body ?? status.reasonPhrase)
        default: ServiceError(.internalError, "an internal error occurred")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "missing \(key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        case .dataCorrupted: "not valid JSON"
        @unknown default: "undecodable"
        }
    }
}
