import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// One ID per request (docs/operations.md): the caller's `X-Request-ID` when it is one (1 to 128 letters,
/// digits and `-_.:`), else a new one; in the response's `X-Request-ID`, and, through
/// ``RequestLog``, in every log line the request causes. Each request's end is logged at `debug`
/// (method, path without its query, status, milliseconds).
struct RequestIDMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    static let header = HTTPField.Name("X-Request-ID")!
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let id = request.headers[Self.header].flatMap(Self.accepted) ?? Self.newID()
        let started = ContinuousClock.now
        return try await RequestLog.$requestID.withValue(id) {
            do {
                var response = try await next(request, context)
                response.headers[Self.header] = id
                logEnd(request, status: response.status.code, since: started)
                return response
            } catch let error as any HTTPResponseError {
                logEnd(request, status: error.status.code, since: started)
                throw RequestIDError(base: error, id: id)
            }
        }
    }

    private func logEnd(_ request: Request, status: Int, since started: ContinuousClock.Instant) {
        // Every request passes here: nothing is computed for a line the level leaves out.
        guard logger.logLevel <= .debug else { return }
        let elapsed = ContinuousClock.now - started
        let milliseconds = Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15
        logger.debug(
            "request", metadata: [
                "http.method": "\(request.method.rawValue)", "http.path": "\(request.uri.path)", "http.status": "\(status)",
                "http.milliseconds": "\(String(format: "%.1f", milliseconds))",
            ])
    }

    /// The caller's ID, when it can be one.
    static func accepted(_ value: String) -> String? {
        guard (1...128).contains(value.utf8.count),
            value.utf8.allSatisfy({ $0.isASCIILetterOrDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ":") })
        else { return nil }
        return value
    }

    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }
}

/// An error response that also carries the request's ID.
struct RequestIDError: HTTPResponseError {
    let base: any HTTPResponseError
    let id: String

    var status: HTTPResponse.Status { base.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var response = try base.response(from: request, context: context)
        response.headers[RequestIDMiddleware.header] = id
        return response
    }
}

extension UInt8 {
    fileprivate var isASCIILetterOrDigit: Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(self) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(self)
            || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self)
    }
}
