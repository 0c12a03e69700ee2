import EntitleWire
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

extension ReconciliationJobResponse: @retroactive ResponseEncodable {}

extension AdminController {
    /// `Prefer: wait=N` (RFC 7240) in seconds, at most ``longestWait``; 0 without it.
    static func preferredWait(_ request: Request) throws(ServiceError) -> Int {
        guard let prefer = request.headers[.prefer] else { return 0 }
        guard prefer.utf8.count <= 100 else { throw ServiceError(.invalidRequest, "Prefer is at most 100 bytes") }
        for preference in prefer.split(separator: ",") {
            let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            guard parts.count == 2, parts[0].lowercased() == "wait" else { continue }
            guard let seconds = Int(parts[1]), (0...longestWait).contains(seconds) else {
                throw ServiceError(.invalidRequest, "Prefer: wait is 0 to \(longestWait) seconds")
            }
            return seconds
        }
        return 0
    }
}
