import AppStoreModels
import Crypto
import EntitleCore
import EntitleServer
import Foundation
import Testing

/// The app backend's log-in tokens: ES256 compact JWS for one user of one app, minutes long.
@Suite("LogInTokenVerifier")
struct LogInTokenVerifierTests {
    static let backend = P256.Signing.PrivateKey()
    static let now = Date(timeIntervalSince1970: 1_790_000_000)
    static let app = "com.screentimerewards"

    static func verifier(_ keys: [String: P256.Signing.PrivateKey] = ["backend": backend]) throws -> LogInTokenVerifier {
        try LogInTokenVerifier(
            policy: LogInTokenPolicy(publicKeys: keys.mapValues { Array($0.publicKey.x963Representation) }, requiredForAppKeys: false), app: BundleID(app))
    }

    static func token(
        user: AppUserID = "alice", app: String = app, issuedAt: Date = now, lifetime: TimeInterval = 300, keyID: String = "backend",
        key: P256.Signing.PrivateKey = backend
    ) throws -> String {
        try LogInToken.sign(appUserID: user, app: BundleID(app), issuedAt: issuedAt, lifetime: lifetime, keyID: keyID, key: key)
    }

    /// A token with hand-made parts, signed by the backend.
    static func handMade(header: String, claims: String, key: P256.Signing.PrivateKey = backend) throws -> String {
        let input = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }

    @Test("a token the backend signed for this user of this app, within its minutes, proves the log-in")
    func accepted() throws {
        try Self.verifier().verify(try Self.token(), appUserID: "alice", now: Self.now.addingTimeInterval(299))
        // The backend's clock may run a minute ahead.
        try Self.verifier().verify(try Self.token(issuedAt: Self.now.addingTimeInterval(59)), appUserID: "alice", now: Self.now)
        // Without kid, when the app lists one key.
        let claims = #"{"sub":"alice","aud":"com.screentimerewards","iat":1790000000,"exp":1790000300}"#
        try Self.verifier().verify(try Self.handMade(header: #"{"alg":"ES256"}"#, claims: claims), appUserID: "alice", now: Self.now)
    }

    static let refusals: [(String, @Sendable () throws -> String, String)] = [
        ("another user's", { try token(user: "bob") }, "another user"),
        ("another app's", { try token(app: "com.epilogue.app") }, "another app"),
        ("expired", { try token(issuedAt: now.addingTimeInterval(-400)) }, "expired"),
        ("issued in the future", { try token(issuedAt: now.addingTimeInterval(120)) }, "future"),
        ("living more than an hour", { try token(lifetime: 3601) }, "longer"),
        ("signed by another key", { try token(key: P256.Signing.PrivateKey()) }, "not signed"),
        ("naming a key the app doesn't list", { try token(keyID: "old") }, "kid"),
        ("alg none", { Base64URL.encode(Data(#"{"alg":"none"}"#.utf8)) + "." + Base64URL.encode(Data(#"{"sub":"alice"}"#.utf8)) + "." }, "not ES256"),
        ("HS256", { try handMade(header: #"{"alg":"HS256"}"#, claims: "{}") }, "not ES256"),
        ("claims in fractional seconds", {
            try handMade(header: #"{"alg":"ES256"}"#, claims: #"{"sub":"alice","aud":"com.screentimerewards","iat":1790000000.5,"exp":1790000300}"#)
        }, "claims"),
        ("an exp past 2200", {
            try handMade(header: #"{"alg":"ES256"}"#, claims: #"{"sub":"alice","aud":"com.screentimerewards","iat":1790000000,"exp":9223372036854775807}"#)
        }, "out of range"),
        ("not a JWS", { "alice" }, "compact JWS"),
        ("4 KB and more", { String(repeating: "a", count: 5000) }, "longer than"),
    ]

    @Test("refused, saying why, never echoing the token", arguments: 0..<refusals.count)
    func refused(index: Int) throws {
        let (_, make, reason) = Self.refusals[index]
        let token = try make()
        let error = #expect(throws: ServiceError.self) { try Self.verifier().verify(token, appUserID: "alice", now: Self.now) }
        #expect(error?.code == .invalidLogInToken)
        #expect(error?.message.contains(reason) == true, "\(error?.message ?? "")")
        #expect(error?.message.contains(token) == false)
    }

    @Test("with several keys the token names its own: rotation keeps both valid until the old one is removed")
    func rotation() throws {
        let next = P256.Signing.PrivateKey()
        let verifier = try Self.verifier(["backend": Self.backend, "next": next])
        try verifier.verify(try Self.token(keyID: "next", key: next), appUserID: "alice", now: Self.now)
        try verifier.verify(try Self.token(), appUserID: "alice", now: Self.now)
        let unnamed = try Self.handMade(header: #"{"alg":"ES256"}"#, claims: #"{"sub":"alice","aud":"com.screentimerewards","iat":1790000000,"exp":1790000300}"#)
        #expect(throws: ServiceError(.invalidLogInToken, "")) { try verifier.verify(unnamed, appUserID: "alice", now: Self.now) }
    }

    @Test("a listed key that is not a point of P-256 stops the server from starting")
    func badKey() {
        var point = Array(Self.backend.publicKey.x963Representation)
        point[64] ^= 1
        #expect(throws: ServiceError.self) {
            try LogInTokenVerifier(policy: LogInTokenPolicy(publicKeys: ["backend": point], requiredForAppKeys: false), app: BundleID(Self.app))
        }
    }
}
