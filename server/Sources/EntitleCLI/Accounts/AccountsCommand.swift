import ArgumentParser
import EntitleServer
import EntitleStorage
import Foundation
import Logging

/// `entitle accounts invite|list|role|disable`: the dashboard's people (docs/dashboard.md, "Accounts"),
/// in the database every instance shares. The first owner is invited from here.
struct AccountsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accounts", abstract: "Invite people to the dashboard, list them, change a role, disable an account.",
        subcommands: [Invite.self, List.self, Role.self, Disable.self])

    struct Invite: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite someone; the invitation link is printed once, alone on the last line.",
            discussion: """
                The link works once, for 7 days: the person opens it, chooses a password, and is signed in. Inviting an email \
                that has an account gives it the new role when the link is used. Roles: owner (everything, and the people), \
                admin (everything of every app), support (reads, and changes to one subscriber), viewer (reads).
                """)

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable (created when missing)")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "owner, admin, support or viewer.") var role: String
        @Option(help: "The dashboard's address as the person reaches it.") var url: String = "http://127.0.0.1:8080"
        @Argument(help: "Their email address.") var email: String

        func validate() throws {
            guard DashboardRole(rawValue: role) != nil else { throw ValidationError("--role is owner, admin, support or viewer") }
            guard let parsed = URL(string: url), ["http", "https"].contains(parsed.scheme ?? ""), parsed.host != nil else {
                throw ValidationError("--url is the dashboard's http(s) address, e.g. https://entitle.example.com")
            }
        }

        func run() async throws {
            guard let role = DashboardRole(rawValue: role) else { throw ValidationError("--role is owner, admin, support or viewer") }
            let (database, email) = (try CommandInputs.database(database), email)
            let (invitation, token) = try await LedgerConnection.with(database, logger: Logger(label: "entitle.accounts")) { store in
                try await Self.accounts(store).invite(email: email, role: role, invitedBy: "cli")
            }
            let base = url.hasSuffix("/") ? String(url.dropLast()) : url
            print("invited \(invitation.email) as \(invitation.role.rawValue) until \(invitation.expiresAt.formatted(.iso8601)); the link works once:")
            print("\(base)/dashboard/invitation?token=\(token)")
        }

        static func accounts(_ store: any LedgerStore) -> DashboardAccounts {
            DashboardAccounts(store: store.dashboardAccountStore(), sessions: store.dashboardSessionStore(), now: { Date() })
        }

        /// The account of `email`, or a failure naming it.
        static func existing(_ email: String, _ accounts: DashboardAccounts) async throws -> DashboardAccount {
            guard let account = try await accounts.account(email: email) else { throw CommandFailure("no account \(email)") }
            return account
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the accounts (never a password or its hash).")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"

        func run() async throws {
            let accounts = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.accounts")) { store in
                try await Invite.accounts(store).accounts()
            }
            if accounts.isEmpty { print("no accounts") }
            let now = Date()
            for account in accounts {
                let state = account.isActive(at: now) ? "active" : "disabled"
                let last = account.lastSignInAt.map { "last sign-in \($0.formatted(.iso8601))" } ?? "never signed in"
                print("\(account.id)  \(account.email)  \(account.role.rawValue)  \(account.name ?? "-")  \(state)  \(last)")
            }
        }
    }

    struct Role: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "role", abstract: "Give an account another role (a lower one ends its sessions at once).")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Argument(help: "The account's email.") var email: String
        @Argument(help: "owner, admin, support or viewer.") var role: String

        func validate() throws {
            guard DashboardRole(rawValue: role) != nil else { throw ValidationError("the role is owner, admin, support or viewer") }
        }

        func run() async throws {
            guard let role = DashboardRole(rawValue: role) else { throw ValidationError("the role is owner, admin, support or viewer") }
            let email = email
            let (before, after) = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.accounts")) { store in
                let accounts = Invite.accounts(store)
                return try await accounts.setRole(id: try await Invite.existing(email, accounts).id, role: role)
            }
            print("\(after.email): \(before.role.rawValue) → \(after.role.rawValue)")
        }
    }

    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Disable an account: it signs in no more, its sessions end at once.")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Argument(help: "The account's email.") var email: String

        func run() async throws {
            let email = email
            let disabled = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.accounts")) { store in
                let accounts = Invite.accounts(store)
                return try await accounts.disable(id: try await Invite.existing(email, accounts).id).after
            }
            print("disabled \(disabled.email)")
        }
    }
}
