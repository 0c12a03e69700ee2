import HTTPTypes
import Hummingbird

/// Sets the request context's body limit, and refuses at once a request whose `Content-Length` is
/// over it (413) before a byte of its body is read.
struct BodyLimitMiddleware: RouterMiddleware {
    typealias Context = EntitleRequestContext
    let limit: Int
    /// Paths whose bodies may be larger, each with its limit (an import's file: `POST /v1/imports/jobs`).
    var larger: [String: Int] = [:]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let limit = larger[request.uri.path].map { max($0, self.limit) } ?? self.limit
        if let declared = request.headers[.contentLength], !Self.fits(declared, limit: limit) {
            throw APIError(error: ServiceError(.bodyTooLarge, "the request body is over the limit of \(limit) bytes"))
        }
        var context = context
        context.bodyLimit = limit
        return try await next(request, context)
    }

    /// Whether a `Content-Length` value is a length of at most `limit` (a value that isn't a length is
    /// left to the HTTP parser, which refuses it).
    static func fits(_ declared: String, limit: Int) -> Bool {
        let digits = declared.utf8
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return true }
        // More digits than the limit has cannot be under it; otherwise the value reads as an Int.
        guard digits.count <= String(limit).utf8.count, let length = Int(declared) else { return false }
        return length <= limit
    }
}
