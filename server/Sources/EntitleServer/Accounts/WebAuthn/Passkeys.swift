import AppStoreModels
import Crypto
import EntitleStorage
import Foundation

/// Passkeys for the dashboard (WebAuthn Level 2; docs/analytics.md, "Accounts"): a signed-in person
/// registers one, then signs in with it and no password. ES256 on P-256 only; attestation is not asked
/// for (`none`), so nothing is claimed about the authenticator's make. Challenges are kept in the ledger's
/// database, answered once, within two minutes, on any instance.
public struct Passkeys: Sendable {
    /// Who the passkeys are for: the dashboard's host as the browser reached it.
    public struct RelyingParty: Sendable, Hashable {
        /// The host, without port (a domain: WebAuthn takes no IP address).
        public var id: String
        /// `scheme://host[:port]`, which the browser puts in the client data.
        public var origin: String

        public init(id: String, origin: String) {
            self.id = id
            self.origin = origin
        }
    }

    static let challengeLifetime: TimeInterval = 120

    let store: any PasskeyStore
    let accounts: DashboardAccounts
    let now: @Sendable () -> Date

    public init(store: any PasskeyStore, accounts: DashboardAccounts, now: @escaping @Sendable () -> Date) {
        self.store = store
        self.accounts = accounts
        self.now = now
    }

    // MARK: Registration

    struct RegistrationOptions: Codable, Sendable {
        struct Party: Codable, Sendable {
            var id: String
            var name: String
        }
        struct User: Codable, Sendable {
            var id: String
            var name: String
            var displayName: String
        }
        var challenge: String
        var rp: Party
        var user: User
        /// The person's passkeys already registered (base64url), so the authenticator makes no second one.
        var excludeCredentials: [String]
    }

    struct RegistrationResponse: Codable, Sendable {
        var id: String
        var clientDataJSON: String
        var attestationObject: String
        var name: String?
    }

    /// The options for `navigator.credentials.create`, with a new challenge for the signed-in account.
    func registrationOptions(accountID: String, rp: RelyingParty) async throws(ServiceError) -> RegistrationOptions {
        guard let account = try await accounts.activeAccount(id: accountID) else { throw Self.refused("sign in again") }
        let challenge = try await newChallenge(.registration, accountID: account.id)
        let existing: [DashboardPasskey]
        do {
            existing = try await store.passkeys(accountID: account.id)
        } catch {
            throw ServiceError(error)
        }
        return RegistrationOptions(
            challenge: challenge, rp: .init(id: rp.id, name: "Entitle"),
            user: .init(id: Base64URL.encode(Data(account.id.utf8)), name: account.email, displayName: account.name ?? account.email),
            excludeCredentials: existing.map(\.credentialID))
    }

    /// A passkey added: its credential ID, and its name or, without one, its ID.
    struct Added: Sendable {
        var credentialID: String
        var label: String
    }

    /// Checks the authenticator's answer and keeps the new passkey for the account.
    func register(accountID: String, _ response: RegistrationResponse, rp: RelyingParty) async throws(ServiceError) -> Added {
        _ = try await clientData(response.clientDataJSON, type: "webauthn.create", rp: rp, purpose: .registration, accountID: accountID)
        guard let attestation = Data(base64URL: response.attestationObject),
            let object = try? CBOR.decode(attestation), let authData = object["authData"]?.data, object["fmt"]?.string != nil
        else { throw Self.refused("the attestation object isn't one") }
        let parsed = try Self.authenticatorData(authData, rp: rp)
        guard let credential = parsed.credentialID, let key = parsed.publicKey, (try? P256.Signing.PublicKey(x963Representation: key)) != nil else {
            throw Self.refused("the authenticator sent no usable P-256 key")
        }
        guard Base64URL.encode(credential) == response.id else { throw Self.refused("the credential ID differs from the one the authenticator names") }
        let name = response.name.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
        let passkey = DashboardPasskey(
            credentialID: response.id, accountID: accountID, publicKey: key, signCount: parsed.signCount, name: name, createdAt: now())
        do {
            guard try await store.passkey(credentialID: passkey.credentialID) == nil else { throw Self.refused("this passkey is registered already") }
            try await store.insertPasskey(passkey)
        } catch let error as ServiceError {
            throw error
        } catch let error as StorageError {
            throw ServiceError(error)
        } catch {
            throw ServiceError(.internalError, "the passkey could not be kept")
        }
        return Added(credentialID: passkey.credentialID, label: passkey.name ?? passkey.credentialID)
    }

    // MARK: Sign-in

    struct AuthenticationOptions: Codable, Sendable {
        var challenge: String
        var rpId: String
    }

    struct AuthenticationResponse: Codable, Sendable {
        var id: String
        var clientDataJSON: String
        var authenticatorData: String
        var signature: String
        var userHandle: String?
    }

    /// The options for `navigator.credentials.get`: a new challenge, any of this site's passkeys.
    func authenticationOptions(rp: RelyingParty) async throws(ServiceError) -> AuthenticationOptions {
        AuthenticationOptions(challenge: try await newChallenge(.authentication, accountID: nil), rpId: rp.id)
    }

    /// The account the answer signs in: its passkey's signature over the authenticator data and the client
    /// data's hash checked, its counter moved on (a counter that goes back means a cloned authenticator).
    func authenticate(_ response: AuthenticationResponse, rp: RelyingParty) async throws(ServiceError) -> DashboardAccounts.SignedIn {
        _ = try await clientData(response.clientDataJSON, type: "webauthn.get", rp: rp, purpose: .authentication, accountID: nil)
        guard response.id.utf8.count <= 1_400 else { throw Self.refused("the credential ID is too long") }
        let found: DashboardPasskey?
        do {
            found = try await store.passkey(credentialID: response.id)
        } catch {
            throw ServiceError(error)
        }
        guard let passkey = found, let authData = Data(base64URL: response.authenticatorData), let clientJSON = Data(base64URL: response.clientDataJSON),
            let signature = Data(base64URL: response.signature)
        else { throw Self.refused("this passkey isn't one of this dashboard's") }
        let parsed = try Self.authenticatorData(authData, rp: rp)
        guard let key = try? P256.Signing.PublicKey(x963Representation: passkey.publicKey),
            let ecdsa = try? P256.Signing.ECDSASignature(derRepresentation: signature),
            key.isValidSignature(ecdsa, for: authData + Data(SHA256.hash(data: clientJSON)))
        else { throw Self.refused("the passkey's signature doesn't verify") }
        if passkey.signCount != 0 || parsed.signCount != 0, parsed.signCount <= passkey.signCount {
            throw Self.refused("the passkey's counter went back: the authenticator may have been copied")
        }
        do {
            try await store.usePasskey(credentialID: passkey.credentialID, signCount: parsed.signCount, at: now())
        } catch {
            throw ServiceError(error)
        }
        return try await accounts.openSession(passkeyOf: passkey.accountID)
    }

    /// The account's passkeys, oldest first.
    func passkeys(accountID: String) async throws(ServiceError) -> [DashboardPasskey] {
        do {
            return try await store.passkeys(accountID: accountID)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Removes one of the account's passkeys.
    func remove(credentialID: String, accountID: String) async throws(ServiceError) {
        do {
            guard try await store.deletePasskey(credentialID: credentialID, accountID: accountID) else {
                throw ServiceError(.notFound, "no passkey \(credentialID) of yours")
            }
        } catch let error as ServiceError {
            throw error
        } catch let error as StorageError {
            throw ServiceError(error)
        } catch {
            throw ServiceError(.internalError, "the passkey could not be removed")
        }
    }

    // MARK: Checks

    private func newChallenge(_ purpose: DashboardChallenge.Purpose, accountID: String?) async throws(ServiceError) -> String {
        let challenge = Base64URL.encode(Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }))
        let at = now()
        do {
            try await store.insertChallenge(
                hash: SecretDigest.of(challenge), DashboardChallenge(purpose: purpose, accountID: accountID, expiresAt: at.addingTimeInterval(Self.challengeLifetime)),
                now: at)
        } catch {
            throw ServiceError(error)
        }
        return challenge
    }

    struct ClientData: Decodable {
        var type: String
        var challenge: String
        var origin: String
        var crossOrigin: Bool?
    }

    /// The client data, checked: its type, its origin (this dashboard's), and its challenge — one this server
    /// issued for this purpose (and account), unexpired, taken now so it answers once.
    private func clientData(
        _ encoded: String, type: String, rp: RelyingParty, purpose: DashboardChallenge.Purpose, accountID: String?
    ) async throws(ServiceError) -> ClientData {
        guard encoded.utf8.count <= 8_192, let json = Data(base64URL: encoded), let client = try? JSONDecoder().decode(ClientData.self, from: json) else {
            throw Self.refused("the client data isn't WebAuthn's")
        }
        guard client.type == type else { throw Self.refused("the client data is a \(client.type), not a \(type)") }
        guard client.origin == rp.origin, client.crossOrigin != true else { throw Self.refused("the passkey was used from \(client.origin), not \(rp.origin)") }
        let taken: DashboardChallenge?
        do {
            taken = try await store.takeChallenge(hash: SecretDigest.of(client.challenge))
        } catch {
            throw ServiceError(error)
        }
        guard let taken, taken.purpose == purpose, taken.accountID == accountID, now() < taken.expiresAt else {
            throw Self.refused("the challenge is unknown, used already, or expired: try again")
        }
        return client
    }

    private static func authenticatorData(_ data: Data, rp: RelyingParty) throws(ServiceError) -> AuthenticatorData {
        let parsed: AuthenticatorData
        do {
            parsed = try AuthenticatorData(data)
        } catch {
            throw refused(error.reason)
        }
        guard parsed.rpIDHash == Data(SHA256.hash(data: Data(rp.id.utf8))) else { throw refused("the passkey is for another site") }
        guard parsed.userPresent else { throw refused("the authenticator saw no one present") }
        return parsed
    }

    static func refused(_ reason: String) -> ServiceError { ServiceError(.passkeyRefused, "passkey refused: \(reason)") }
}
