import AppStoreModels
import Crypto
import EntitleStorage
import Foundation
import Logging

/// The dashboard's people (docs/dashboard.md, "Accounts"): invitations, sign-in with a password, roles.
/// Server-wide, in the ledger's database, so every instance sees the same people, locks and sessions.
public struct DashboardAccounts: Sendable {
    /// How long an invitation link works.
    public static let invitationLifetime: TimeInterval = 7 * 86_400
    /// Invitation tokens are `inv_` and 32 random bytes, base64url: anything longer is not one.
    static let maximumTokenLength = 64

    let store: any DashboardAccountStore
    let sessions: any DashboardSessionStore
    let hasher: PasswordHasher
    let lockout: SignInLockout
    let now: @Sendable () -> Date
    /// Failed sign-ins per client address, on this instance.
    let throttle = SignInThrottle()

    public init(
        store: any DashboardAccountStore, sessions: any DashboardSessionStore, hasher: PasswordHasher = PasswordHasher(),
        lockout: SignInLockout = SignInLockout(), now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.sessions = sessions
        self.hasher = hasher
        self.lockout = lockout
        self.now = now
        self.sessionCookies = DashboardSessions(store: sessions)
    }

    private let sessionCookies: DashboardSessions

    /// An invitation as its sender sees it, once: the token is the link's secret.
    public struct SentInvitation: Sendable {
        public let email: String
        public let role: String
        public let expiresAt: Date
        public let token: String
    }

    /// A person signed in: their session's cookie.
    public struct SignedIn: Sendable {
        public let accountID: String
        public let role: String
        public let cookie: String
    }

    /// A change to an account, as the audit log keeps it: whose, and what it was and became.
    public struct Change: Sendable {
        public let accountID: String
        public let before: String
        public let after: String
    }

    /// A new invitation of `email` as the role named `role`, from `invitedBy`.
    public func invite(email: String, roleNamed role: String, invitedBy: String) async throws(ServiceError) -> SentInvitation {
        let (invitation, token) = try await invite(email: email, role: try Self.role(named: role), invitedBy: invitedBy)
        return SentInvitation(email: invitation.email, role: invitation.role.rawValue, expiresAt: invitation.expiresAt, token: token)
    }

    /// A new invitation of `email` as `role`, from `invitedBy`: the link's token, shown once.
    public func invite(email: String, role: DashboardRole, invitedBy: String) async throws(ServiceError) -> (invitation: DashboardInvitation, token: String) {
        let email = try Self.normalized(email)
        let token = "inv_" + Base64URL.encode(Data(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }))
        let at = now()
        let invitation = DashboardInvitation(
            email: email, role: role, invitedBy: invitedBy, createdAt: at, expiresAt: at.addingTimeInterval(Self.invitationLifetime))
        do {
            try await store.insertInvitation(hash: SecretDigest.of(token), invitation)
        } catch {
            throw ServiceError(error)
        }
        return (invitation, token)
    }

    /// The open invitation of `token`, or `account.invitationClosed`.
    public func invitation(token: String) async throws(ServiceError) -> DashboardInvitation {
        guard token.hasPrefix("inv_"), token.utf8.count <= Self.maximumTokenLength else { throw Self.closed }
        let found: DashboardInvitation?
        do {
            found = try await store.invitation(hash: SecretDigest.of(token))
        } catch {
            throw ServiceError(error)
        }
        guard let found, found.isOpen(at: now()) else { throw Self.closed }
        return found
    }

    /// Accepts the invitation: the account is created (or, for an email that has one, given the
    /// invitation's role) with `password`; the link works once.
    public func accept(token: String, name: String?, password: String) async throws(ServiceError) -> DashboardAccount {
        let invitation = try await invitation(token: token)
        try Self.checkPassword(password, email: invitation.email)
        let name = name.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
        let hash = try await hasher.hash(password)
        let at = now()
        let account = DashboardAccount(
            id: "acct_" + Base64URL.encode(Data(SymmetricKey(size: .bits128).withUnsafeBytes { Array($0) })), email: invitation.email, name: name,
            role: invitation.role, passwordHash: hash, createdAt: at)
        let accepted: DashboardAccount?
        do {
            accepted = try await store.acceptInvitation(hash: SecretDigest.of(token), account: account, at: at)
        } catch {
            throw ServiceError(error)
        }
        guard let accepted else { throw Self.closed }
        return accepted
    }

    /// The account of `email` when `password` is its password: a wrong pair is `auth.signInRefused`
    /// (which of the two is not said, and an unknown email takes as long); after
    /// ``SignInLockout/threshold`` failures in a row the account refuses every attempt, right or wrong,
    /// with `auth.signInLocked` until its lock ends.
    public func signIn(email: String, password: String) async throws(ServiceError) -> DashboardAccount {
        let refused = ServiceError(.signInRefused, "that email and password don't sign in")
        guard let email = try? Self.normalized(email), Self.lengthsAccepted(password) else { throw refused }
        let found: DashboardAccount?
        do {
            found = try await store.account(email: email)
        } catch {
            throw ServiceError(error)
        }
        let at = now()
        guard let account = found, account.isActive(at: at), let stored = account.passwordHash else {
            // One derivation at today's cost, as checking a known account's hash takes.
            _ = try await hasher.hash(password)
            throw refused
        }
        if let until = account.lockedUntil, at < until { throw Self.locked(until: until) }
        let matches = try await hasher.verify(password, against: stored)
        let after: DashboardAccount?
        do {
            after = try await store.recordSignIn(accountID: account.id, succeeded: matches, at: at, lockout: lockout)
        } catch {
            throw ServiceError(error)
        }
        guard matches, var signedIn = after else {
            if let until = after?.lockedUntil, at < until { throw Self.locked(until: until) }
            throw refused
        }
        // A hash made under an older cost moves to today's.
        if hasher.needsRehash(stored) {
            signedIn.passwordHash = try await hasher.hash(password)
            _ = try? await store.updateAccount(signedIn)
        }
        return signedIn
    }

    /// Signs the person in (``signIn(email:password:)``) and opens their session.
    func openSession(email: String, password: String) async throws(ServiceError) -> SignedIn {
        let account = try await signIn(email: email, password: password)
        return SignedIn(accountID: account.id, role: account.role.rawValue, cookie: try await sessionCookies.issue(now: now(), accountID: account.id))
    }

    /// Opens a session for the account a passkey signed in: refused while it is disabled or locked.
    func openSession(passkeyOf accountID: String) async throws(ServiceError) -> SignedIn {
        guard let account = try await activeAccount(id: accountID) else { throw ServiceError(.passkeyRefused, "passkey refused: the account is disabled") }
        let at = now()
        if let until = account.lockedUntil, at < until { throw Self.locked(until: until) }
        do {
            _ = try await store.recordSignIn(accountID: account.id, succeeded: true, at: at, lockout: lockout)
        } catch {
            throw ServiceError(error)
        }
        return SignedIn(accountID: account.id, role: account.role.rawValue, cookie: try await sessionCookies.issue(now: at, accountID: account.id))
    }

    /// Accepts the invitation (``accept(token:name:password:)``) and opens the new person's session.
    func acceptAndOpenSession(token: String, name: String?, password: String) async throws(ServiceError) -> SignedIn {
        let account = try await accept(token: token, name: name, password: password)
        return SignedIn(accountID: account.id, role: account.role.rawValue, cookie: try await sessionCookies.issue(now: now(), accountID: account.id))
    }

    /// Gives the account the role named `role`, as ``setRole(id:role:)``, described for the audit log.
    func changeRole(id: String, roleNamed role: String) async throws(ServiceError) -> Change {
        let (before, after) = try await setRole(id: id, role: try Self.role(named: role))
        return Change(accountID: id, before: "\(before.email): \(before.role.rawValue)", after: "\(after.email): \(after.role.rawValue)")
    }

    /// Disables the account, as ``disable(id:)``, described for the audit log.
    func disableAccount(id: String) async throws(ServiceError) -> Change {
        let (before, after) = try await disable(id: id)
        return Change(accountID: id, before: "\(before.email): \(before.isActive(at: now()) ? "active" : "disabled")", after: "\(after.email): disabled")
    }

    static func role(named name: String) throws(ServiceError) -> DashboardRole {
        guard let role = DashboardRole(rawValue: name) else { throw ServiceError(.invalidRequest, "a role is owner, admin, support or viewer") }
        return role
    }

    /// Every account, oldest first.
    public func accounts() async throws(ServiceError) -> [DashboardAccount] {
        do {
            return try await store.accounts()
        } catch {
            throw ServiceError(error)
        }
    }

    /// The account of `email` (as sign-in reads it: trimmed, lowercased), disabled or not.
    public func account(email: String) async throws(ServiceError) -> DashboardAccount? {
        guard let email = try? Self.normalized(email) else { return nil }
        do {
            return try await store.account(email: email)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The account `id`, when it may act at this instant (not disabled).
    public func activeAccount(id: String) async throws(ServiceError) -> DashboardAccount? {
        do {
            return try await store.account(id: id).flatMap { $0.isActive(at: now()) ? $0 : nil }
        } catch {
            throw ServiceError(error)
        }
    }

    /// Gives the account `role`; the last active owner keeps theirs. Returns the account before and after.
    public func setRole(id: String, role: DashboardRole) async throws(ServiceError) -> (before: DashboardAccount, after: DashboardAccount) {
        try await change(id: id) { account in account.role = role }
    }

    /// Disables the account: it signs in no more, and its sessions end at once on every instance. The last
    /// active owner can't be disabled.
    public func disable(id: String) async throws(ServiceError) -> (before: DashboardAccount, after: DashboardAccount) {
        let at = now()
        return try await change(id: id) { account in account.disabledAt = account.disabledAt ?? at }
    }

    private func change(id: String, _ edit: (inout DashboardAccount) -> Void) async throws(ServiceError) -> (before: DashboardAccount, after: DashboardAccount) {
        do {
            let at = now()
            let everyone = try await store.accounts()
            guard var account = everyone.first(where: { $0.id == id }) else { throw ServiceError(.notFound, "no account \(id)") }
            let before = account
            edit(&account)
            let owners = everyone.filter { $0.role == .owner && $0.isActive(at: at) }
            if before.role == .owner, before.isActive(at: at), account.role != .owner || !account.isActive(at: at), owners.count <= 1 {
                throw ServiceError(.lastOwner, "\(account.email) is the last active owner: make someone else an owner first")
            }
            guard try await store.updateAccount(account) != nil else { throw ServiceError(.notFound, "no account \(id)") }
            // A lower role or a disabled account: every session of theirs ends now, wherever it is.
            if account.role < before.role || !account.isActive(at: at) { try await sessions.revokeSessions(accountID: id, at: at) }
            return (before, account)
        } catch let error as ServiceError {
            throw error
        } catch let error as StorageError {
            throw ServiceError(error)
        } catch {
            throw ServiceError(.internalError, "the account could not be changed")
        }
    }

    /// An email as accounts are kept: trimmed, lowercased, one `@` with text on each side, at most 254 bytes.
    static func normalized(_ email: String) throws(ServiceError) -> String {
        let trimmed = email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let parts = trimmed.split(separator: "@", omittingEmptySubsequences: false)
        guard trimmed.utf8.count <= 254, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !trimmed.contains(where: { $0.isWhitespace || $0.isNewline || $0 == "<" || $0 == ">" || $0 == "\"" })
        else { throw ServiceError(.invalidRequest, "an email address is name@domain, at most 254 characters") }
        return trimmed
    }

    static func lengthsAccepted(_ password: String) -> Bool { PasswordHasher.lengths.contains(password.count) && password.utf8.count <= 1_024 }

    static func checkPassword(_ password: String, email: String) throws(ServiceError) {
        guard lengthsAccepted(password) else {
            throw ServiceError(.invalidRequest, "a password is \(PasswordHasher.lengths.lowerBound) to \(PasswordHasher.lengths.upperBound) characters")
        }
        guard password.lowercased() != email, Set(password).count > 3 else {
            throw ServiceError(.invalidRequest, "choose a password that isn't your email or one character repeated")
        }
    }

    static func locked(until: Date) -> ServiceError {
        ServiceError(.signInLocked, "too many failed sign-ins: this account refuses sign-in until \(until.formatted(.iso8601))")
    }

    static let closed = ServiceError(.invitationClosed, "this invitation link is unknown, used already, or expired: ask an owner for a new one")
}
