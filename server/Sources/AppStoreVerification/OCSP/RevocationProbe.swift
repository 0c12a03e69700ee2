import Foundation
import X509

/// Adapts a ``RevocationTransport`` to swift-certificates' OCSP requester for one validation, and
/// remembers what happened so a failure can be classified: an unreachable responder, or one that
/// answers `tryLater` or `internalError` (RFC 6960 4.2.1), is retryable; a responder that answered
/// and didn't confirm the certificate as good is not.
final class RevocationProbe: OCSPRequester, Sendable {
    let transport: any RevocationTransport
    private let state = LockedValue<(unreachable: [String], answered: Int)>(([], 0))

    init(requester: any RevocationTransport) {
        self.transport = requester
    }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        do {
            let response = try await transport.send(request: request, to: uri)
            if let status = Self.responseStatus(response), status == 2 || status == 3 {
                state.withLock { $0.unreachable.append("\(uri): the responder answered \(status == 3 ? "tryLater" : "internalError")") }
            } else {
                state.withLock { $0.answered += 1 }
            }
            return .response(response)
        } catch {
            state.withLock { $0.unreachable.append("\(uri): \(error)") }
            return .terminalError(error)
        }
    }

    /// The classification of a failed validation, when revocation checking caused it.
    var outcome: VerificationError? {
        let (unreachable, answered) = state.withLock { ($0.unreachable, $0.answered) }
        if !unreachable.isEmpty {
            return VerificationError(
                .revocationCheckUnavailable, "the OCSP responder could not be reached (\(unreachable.joined(separator: "; "))); retry later")
        }
        if answered > 0 {
            return VerificationError(.certificateRevoked, "the OCSP responder did not confirm the chain's certificates as good")
        }
        return nil
    }

    /// The `responseStatus` of a DER OCSPResponse: `SEQUENCE { ENUMERATED status, … }`, short form only.
    static func responseStatus(_ response: [UInt8]) -> UInt8? {
        guard response.count >= 5, response[0] == 0x30 else { return nil }
        let start = response[1] < 0x80 ? 2 : 2 + Int(response[1] & 0x7F)
        guard response.count >= start + 3, response[start] == 0x0A, response[start + 1] == 0x01 else { return nil }
        return response[start + 2]
    }
}
