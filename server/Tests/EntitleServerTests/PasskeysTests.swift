import AppStoreModels
import Crypto
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleServer

/// WebAuthn's two ceremonies against a software authenticator (a P-256 key, the data a browser and an
/// authenticator would send), on the in-memory store: what registers, what signs in, what is refused.
@Suite("Passkeys")
struct PasskeysTests {
    static let rp = Passkeys.RelyingParty(id: "dash.example.com", origin: "https://dash.example.com")

    /// What a browser and its authenticator send.
    struct Authenticator {
        let key = P256.Signing.PrivateKey()
        let credentialID = Data((0..<16).map { UInt8($0 &* 7 &+ 1) })
        var counter: UInt32 = 0
        var rpID = PasskeysTests.rp.id
        var origin = PasskeysTests.rp.origin

        static func cbor(_ value: Any) -> [UInt8] {
            func head(_ major: UInt8, _ n: Int) -> [UInt8] {
                if n < 24 { return [major << 5 | UInt8(n)] }
                if n < 256 { return [major << 5 | 24, UInt8(n)] }
                return [major << 5 | 25, UInt8(n >> 8), UInt8(n & 0xFF)]
            }
            switch value {
            case let n as Int: return n >= 0 ? head(0, n) : head(1, -1 - n)
            case let s as String: return head(3, s.utf8.count) + Array(s.utf8)
            case let d as Data: return head(2, d.count) + Array(d)
            case let pairs as [(Any, Any)]: return head(5, pairs.count) + pairs.flatMap { cbor($0.0) + cbor($0.1) }
            default: return []
            }
        }

        func authData(attested: Bool, flags: UInt8 = 0x05) -> Data {
            var bytes = Array(SHA256.hash(data: Data(rpID.utf8))) + [flags | (attested ? 0x40 : 0)]
            bytes += [UInt8(counter >> 24), UInt8(counter >> 16 & 0xFF), UInt8(counter >> 8 & 0xFF), UInt8(counter & 0xFF)]
            if attested {
                let point = Array(key.publicKey.x963Representation)
                let cose: [(Any, Any)] = [(1, 2), (3, -7), (-1, 1), (-2, Data(point[1...32])), (-3, Data(point[33...64]))]
                bytes += Array(repeating: 0, count: 16) + [0, UInt8(credentialID.count)] + Array(credentialID) + Self.cbor(cose)
            }
            return Data(bytes)
        }

        func clientData(_ type: String, challenge: String) -> Data {
            Data(#"{"type":"\#(type)","challenge":"\#(challenge)","origin":"\#(origin)","crossOrigin":false}"#.utf8)
        }

        func register(challenge: String) -> Passkeys.RegistrationResponse {
            let object: [(Any, Any)] = [("fmt", "none"), ("attStmt", [(Any, Any)]()), ("authData", authData(attested: true))]
            return Passkeys.RegistrationResponse(
                id: Base64URL.encode(credentialID), clientDataJSON: Base64URL.encode(clientData("webauthn.create", challenge: challenge)),
                attestationObject: Base64URL.encode(Data(Self.cbor(object))), name: "laptop")
        }

        func assert(challenge: String, signer: P256.Signing.PrivateKey? = nil) throws -> Passkeys.AuthenticationResponse {
            let data = authData(attested: false)
            let client = clientData("webauthn.get", challenge: challenge)
            let signature = try (signer ?? key).signature(for: data + Data(SHA256.hash(data: client)))
            return Passkeys.AuthenticationResponse(
                id: Base64URL.encode(credentialID), clientDataJSON: Base64URL.encode(client), authenticatorData: Base64URL.encode(data),
                signature: Base64URL.encode(signature.derRepresentation), userHandle: nil)
        }
    }

    /// A memory store with one support account, and the passkeys service over it.
    static func setUp() async throws -> (passkeys: Passkeys, accountID: String, clock: TestClock) {
        let store = MemoryLedgerStore().forApp("com.example.one")
        let clock = TestClock()
        let accounts = DashboardAccounts(
            store: store.dashboardAccountStore(), sessions: store.dashboardSessionStore(), hasher: PasswordHasher(cost: .testing), now: clock.reading)
        let (_, token) = try await accounts.invite(email: "kim@example.com", role: .support, invitedBy: "cli")
        let kim = try await accounts.accept(token: token, name: nil, password: "kim's long password")
        return (Passkeys(store: store.passkeyStore(), accounts: accounts, now: clock.reading), kim.id, clock)
    }

    @Test("registered, then signing in: the account's session, the counter moved on")
    func ceremonies() async throws {
        let (passkeys, kim, _) = try await Self.setUp()
        var authenticator = Authenticator()
        let options = try await passkeys.registrationOptions(accountID: kim, rp: Self.rp)
        #expect(options.rp.id == "dash.example.com" && options.user.name == "kim@example.com" && options.excludeCredentials.isEmpty)
        let added = try await passkeys.register(accountID: kim, authenticator.register(challenge: options.challenge), rp: Self.rp)
        #expect(added.label == "laptop")
        #expect(try await passkeys.registrationOptions(accountID: kim, rp: Self.rp).excludeCredentials == [added.credentialID])

        authenticator.counter = 1
        let challenge = try await passkeys.authenticationOptions(rp: Self.rp).challenge
        let signedIn = try await passkeys.authenticate(try authenticator.assert(challenge: challenge), rp: Self.rp)
        #expect(signedIn.accountID == kim && signedIn.role == "support" && signedIn.cookie.hasPrefix("ds_"))
        #expect(try await passkeys.passkeys(accountID: kim).first?.signCount == 1)
    }

    @Test("refused: another origin, another site, a challenge answered twice or for the other ceremony, another key's signature, a counter that goes back, an expired challenge")
    func refusals() async throws {
        let (passkeys, kim, clock) = try await Self.setUp()
        var authenticator = Authenticator()
        var elsewhere = authenticator
        elsewhere.origin = "https://evil.example.net"
        let first = try await passkeys.registrationOptions(accountID: kim, rp: Self.rp).challenge
        await #expect(throws: ServiceError.self) { try await passkeys.register(accountID: kim, elsewhere.register(challenge: first), rp: Self.rp) }
        var otherSite = authenticator
        otherSite.rpID = "evil.example.net"
        let second = try await passkeys.registrationOptions(accountID: kim, rp: Self.rp).challenge
        await #expect(throws: ServiceError.self) { try await passkeys.register(accountID: kim, otherSite.register(challenge: second), rp: Self.rp) }
        let third = try await passkeys.registrationOptions(accountID: kim, rp: Self.rp).challenge
        _ = try await passkeys.register(accountID: kim, authenticator.register(challenge: third), rp: Self.rp)

        func refused(_ response: Passkeys.AuthenticationResponse) async -> String? {
            do {
                _ = try await passkeys.authenticate(response, rp: Self.rp)
                return nil
            } catch {
                return error.code == .passkeyRefused ? error.message : "\(error.code)"
            }
        }
        // A registration's challenge is not a sign-in's.
        let registration = try await passkeys.registrationOptions(accountID: kim, rp: Self.rp).challenge
        authenticator.counter = 5
        #expect(await refused(try authenticator.assert(challenge: registration))?.contains("challenge") == true)
        // Another key's signature.
        var challenge = try await passkeys.authenticationOptions(rp: Self.rp).challenge
        #expect(await refused(try authenticator.assert(challenge: challenge, signer: P256.Signing.PrivateKey()))?.contains("signature") == true)
        // Answered once only.
        challenge = try await passkeys.authenticationOptions(rp: Self.rp).challenge
        let answer = try authenticator.assert(challenge: challenge)
        #expect(await refused(answer) == nil)
        #expect(await refused(answer)?.contains("used already") == true)
        // A counter that goes back: a copy of the authenticator.
        authenticator.counter = 4
        challenge = try await passkeys.authenticationOptions(rp: Self.rp).challenge
        #expect(await refused(try authenticator.assert(challenge: challenge))?.contains("counter") == true)
        // Expired after two minutes.
        authenticator.counter = 9
        challenge = try await passkeys.authenticationOptions(rp: Self.rp).challenge
        clock.advance(days: 121.0 / 86_400)
        #expect(await refused(try authenticator.assert(challenge: challenge))?.contains("expired") == true)
    }

    @Test("an authenticator's data or attestation that isn't well-formed is refused with a reason, never a crash", arguments: [
        Data(), Data(repeating: 0, count: 36), Data(repeating: 0xFF, count: 37), Data(repeating: 0x40, count: 60),
        Data(Array(repeating: UInt8(0), count: 32) + [0x45, 0, 0, 0, 1] + Array(repeating: 0, count: 16) + [0xFF, 0xFF]),
        Data(Array(repeating: UInt8(0), count: 32) + [0x45, 0, 0, 0, 1] + Array(repeating: 0, count: 16) + [0, 2, 1, 2, 0xBF]),
        Data(Array(repeating: UInt8(0), count: 32) + [0x45, 0, 0, 0, 1] + Array(repeating: 0, count: 16) + [0, 1, 1, 0xA1, 0x01, 0x1B, 0xFF, 0xFF]),
    ])
    func malformed(data: Data) {
        #expect(throws: AuthenticatorData.Invalid.self) { try AuthenticatorData(data) }
    }

    @Test("CBOR: what WebAuthn uses decodes; indefinite lengths, tags, floats, lengths past the end, deep nesting and duplicate keys are errors", arguments: [
        [0x5F], [0xC0, 0x01], [0xF9, 0x3C, 0x00], [0x5A, 0xFF, 0xFF, 0xFF, 0xFF], [0x9B, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        Array(repeating: 0x81, count: 40) + [0x00], [0xA2, 0x01, 0x00, 0x01, 0x00], [0x63, 0xFF, 0xFE, 0xFD], [0x18], [],
    ] as [[UInt8]])
    func cbor(bytes: [UInt8]) {
        #expect(throws: CBOR.DecodingError.self) { try CBOR.decode(Data(bytes)) }
    }

    @Test("CBOR: a COSE key reads back")
    func coseKey() throws {
        let bytes = Authenticator.cbor([(1, 2), (3, -7), (-1, 1), ("fmt", "none")] as [(Any, Any)])
        let key = try CBOR.decode(Data(bytes))
        #expect(key[1]?.int == 2 && key[3]?.int == -7 && key[-1]?.int == 1 && key["fmt"]?.string == "none")
    }
}
