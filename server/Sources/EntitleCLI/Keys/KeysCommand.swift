import ArgumentParser
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import Logging

/// `entitle keys create|list|revoke`: the API keys kept (hashed) in the database, per app.
struct KeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Create, list and revoke the API keys of an app.", subcommands: [Create.self, List.self, Revoke.self])

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a key; the key is printed once, alone on the last line.",
            discussion: """
                An app key (ak_…) is safe to ship inside the app: it reaches that app's subscribers (read, create, submit \
                Apple-signed transactions, usage, offerings) and nothing else. A secret key (sk_…) is a backend's: \
                everything of the app (grants, overrides, households, analytics, keys).
                """)

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable (created when missing)")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "The app's bundle ID.") var app: String
        @Option(help: "app or secret.") var kind: String
        @Option(help: "A name to recognise the key by (1 to 100 characters): the audit log's who.") var name: String?
        @Option(help: "A secret key's scope: admin (everything, the default), support (reads, and changes to one subscriber) or viewer (reads).")
        var scope: String?

        func validate() throws {
            guard StoredKey.Kind(rawValue: kind) != nil else { throw ValidationError("--kind is app or secret") }
            guard scope.map({ StoredKey.Scope(rawValue: $0) != nil }) ?? true else { throw ValidationError("--scope is admin, support or viewer") }
            if scope != nil, kind == "app" { throw ValidationError("--scope is a secret key's") }
            guard !app.isEmpty, app.utf8.count <= 200 else { throw ValidationError("--app is the app's bundle ID") }
            if let name, name.isEmpty || name.count > 100 { throw ValidationError("--name is 1 to 100 characters") }
        }

        func run() async throws {
            guard let kind = StoredKey.Kind(rawValue: kind) else { throw ValidationError("--kind is app or secret") }
            let (database, app, name) = (try CommandInputs.database(database), app, name)
            let scope = StoredKey.Scope(rawValue: scope ?? "admin") ?? .admin
            let created = try await LedgerConnection.with(database, logger: Logger(label: "entitle.keys")) { store in
                try await StoredKeys(store: store.keyStore(), now: { Date() }).create(app: BundleID(app), kind: kind, name: name, scope: scope)
            }
            print("created \(created.stored.kind.rawValue) key \(created.stored.id) for \(app)\(name.map { " (\($0))" } ?? "")\(kind == .secret ? ", scope \(scope.rawValue)" : ""); it is shown once:")
            print(created.key)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the keys (never the keys themselves).")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "Only this app's keys.") var app: String?

        func run() async throws {
            let app = app
            let keys = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.keys")) { store in
                try await store.keyStore().keys(app: app.map { BundleID($0) })
            }
            if keys.isEmpty { print("no keys") }
            for key in keys {
                let state = key.revokedAt.map { "revoked \($0.formatted(.iso8601))" } ?? "active"
                print("\(key.id)  \(key.app)  \(key.kind.rawValue)  \(key.prefix)…  \(key.name ?? "-")  created \(key.createdAt.formatted(.iso8601))  \(state)")
            }
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key: refused everywhere within seconds.")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Argument(help: "The key's id (key_…), as `entitle keys list` shows it.") var id: String

        func run() async throws {
            let id = id
            let revoked = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.keys")) { store in
                try await store.keyStore().revokeKey(id: id, app: nil, at: Date())
            }
            guard let revoked else { throw CommandFailure("no key \(id)") }
            print("revoked \(revoked.kind.rawValue) key \(revoked.id) of \(revoked.app)")
        }
    }
}
