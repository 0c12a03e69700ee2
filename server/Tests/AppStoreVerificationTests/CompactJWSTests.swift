@testable import AppStoreVerification
import AppStoreModels
import Foundation
import Testing

@Suite("CompactJWS")
struct CompactJWSTests {
    static let signature = [UInt8](repeating: 7, count: 64)

    static func jws(header: String = #"{"alg":"ES256"}"#, payload: String = #"{"a":1}"#) -> String {
        "\(Base64URL.encode(Array(header.utf8))).\(Base64URL.encode(Array(payload.utf8))).\(Base64URL.encode(signature))"
    }

    @Test("Splits into the header as sent, the signing input, and the decoded payload and signature")
    func splits() throws {
        let text = Self.jws()
        let jws = try CompactJWS(text)
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        #expect(jws.headerSegment == parts[0])
        #expect(jws.signingInput == "\(parts[0]).\(parts[1])")
        #expect(jws.payload == Array(#"{"a":1}"#.utf8))
        #expect(jws.signature == Self.signature)
        #expect(try jws.decodeHeader().alg == "ES256")
    }

    @Test(
        "Rejects what is not three base64url segments with a typed error",
        arguments: [
            ("", "expected three segments"),
            ("abc", "expected three segments"),
            ("abc.def", "expected three segments"),
            ("a.b.c.d", "more than three segments"),
            ("a.b.c.", "more than three segments"),
            (".eyJ9.AAAA", "an empty segment"),
            ("eyJ9..AAAA", "an empty segment"),
            ("eyJ9.eyJ9.", "an empty segment"),
            ("eyJ9.e+J9.AAAA", "the payload is not base64url"),
            ("eyJ9.eyJ9.AA=A", "the signature is not base64url"),
            ("eyJ9.eyé9.AAAA", "the payload is not base64url"),
        ])
    func rejects(text: String, message: String) {
        do {
            _ = try CompactJWS(text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.code == .malformed)
            #expect(error.message.contains(message))
        }
    }

    @Test("A header with characters outside ASCII is split at its dot and fails only when decoded")
    func nonASCIIHeader() throws {
        let text = "é\u{1F600}." + Self.jws().split(separator: ".", maxSplits: 1)[1]
        let jws = try CompactJWS(text)
        #expect(jws.headerSegment == "é\u{1F600}")
        #expect(throws: VerificationError(.malformed, "")) { _ = try jws.decodeHeader() }
    }
}
