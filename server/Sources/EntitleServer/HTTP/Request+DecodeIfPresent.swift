import Foundation
import Hummingbird

extension Request {
    /// The body decoded as `T` (a decoding failure is a 400 like any body's), or `nil` when there is
    /// no body: for operations whose body holds only options.
    func decodeIfPresent<T: Decodable>(as type: T.Type, context: EntitleRequestContext) async throws -> T? {
        let buffer = try await body.collect(upTo: context.maxUploadSize)
        guard buffer.readableBytes > 0 else { return nil }
        return try context.requestDecoder.decode(T.self, from: Data(buffer.readableBytesView))
    }
}
