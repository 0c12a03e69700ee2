import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// Turns every failure into the API's error body, with a stable code: Hummingbird's own errors
/// (unknown route, body too large, undecodable JSON) included. Nothing else — no stack trace, no
/// internal detail — ever reaches the client.
struct ErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as APIError {
            throw error
        } catch let error as ServiceError {
            throw APIError(error: error)
        } catch let error as HTTPError {
            throw APIError(error: Self.map(error))
        } catch is NIOTooManyBytesError {
            throw APIError(error: ServiceError(.bodyTooLarge, "the request body is over the limit", status: 413))
        } catch let error as DecodingError {
            throw APIError(error: ServiceError(.invalidRequest, "the request body is not the expected JSON: \(Self.describe(error))", status: 400))
        } catch {
            context.logger.error("unexpected error", metadata: ["error.type": "\(type(of: error))"])
            throw APIError(error: ServiceError(ServiceError.Code(rawValue: "server.internal"), "an internal error occurred", status: 500))
        }
    }

    static func map(_ error: HTTPError) -> ServiceError {
        switch error.status {
        case .notFound: ServiceError(.notFound, "no such route", status: 404)
        case .contentTooLarge: ServiceError(.bodyTooLarge, "the request body is over the limit", status: 413)
        case .methodNotAllowed: ServiceError(ServiceError.Code(rawValue: "request.methodNotAllowed"), "method not allowed", status: 405)
        case .badRequest: ServiceError(.invalidRequest, error.body ?? "bad request", status: 400)
        default: ServiceError(ServiceError.Code(rawValue: "request.\(error.status.code)"), error.body ?? error.status.reasonPhrase, status: error.status.code)
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
