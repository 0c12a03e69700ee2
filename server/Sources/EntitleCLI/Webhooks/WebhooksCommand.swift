import ArgumentParser
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import Logging

/// `entitle webhooks add|list|remove|replay`: an app's webhook endpoints, in the database a server uses.
struct WebhooksCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "webhooks", abstract: "Add, list, remove webhook endpoints of an app, and replay failed deliveries.",
        subcommands: [Add.self, List.self, Remove.self, Replay.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add an endpoint; its signing secret is printed once, alone on the last line.",
            discussion: "Event types are listed in docs/webhooks.md; without --event the endpoint receives every type.")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable (created when missing)")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "The app's bundle ID.") var app: String
        @Option(help: "The endpoint's URL (http:// or https://).") var url: String
        @Option(name: .customLong("event"), help: "An event type it receives; repeatable (default: every type).") var events: [String] = []
        @Option(help: "A description (at most 200 characters).") var description: String?
        @Option(help: "The signing secret (16 to 200 printable characters; default: generated).") var secret: String?

        func validate() throws {
            guard !app.isEmpty, app.utf8.count <= 200 else { throw ValidationError("--app is the app's bundle ID") }
            do {
                try WebhookService.validateWebhookURL(url)
                try WebhookService.validateEventTypes(events)
                if let secret { _ = try WebhookService.validateWebhookSecret(secret) }
            } catch {
                throw ValidationError(error.message)
            }
            if let description, description.unicodeScalars.count > 200 { throw ValidationError("--description has at most 200 characters") }
        }

        func run() async throws {
            let secret = secret ?? WebhookService.generateWebhookSecret()
            let endpoint = WebhookEndpoint(
                id: WebhookService.newWebhookEndpointID(), app: BundleID(app), url: url, eventTypes: Array(Set(events)).sorted(), secrets: [secret],
                description: description, createdAt: Date())
            let app = app
            try await LedgerConnection.with(try CommandInputs.database(database), logger: Logger(label: "entitle.webhooks")) { store in
                try await store.forApp(BundleID(app)).webhookStore().addEndpoint(endpoint)
            }
            print("added endpoint \(endpoint.id) for \(app) → \(url) (\(endpoint.eventTypes.isEmpty ? "every event" : endpoint.eventTypes.joined(separator: ", "))); its signing secret is shown once:")
            print(secret)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the app's endpoints (never their secrets) and its deliveries by status.")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "The app's bundle ID.") var app: String

        func run() async throws {
            let app = app
            let (endpoints, counts) = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.webhooks")) { store in
                let webhooks = store.forApp(BundleID(app)).webhookStore()
                return (try await webhooks.endpoints(includingRemoved: false), try await webhooks.deliveryCounts())
            }
            if endpoints.isEmpty { print("no endpoints for \(app)") }
            for endpoint in endpoints {
                let health = endpoint.consecutiveFailures == 0 ? "healthy" : "\(endpoint.consecutiveFailures) failures in a row"
                print("\(endpoint.id)  \(endpoint.url)  \(endpoint.eventTypes.isEmpty ? "every event" : endpoint.eventTypes.joined(separator: ","))  "
                    + "secrets …\(endpoint.secrets.map { String($0.suffix(4)) }.joined(separator: ", …"))  \(health)  \(endpoint.description ?? "")")
            }
            print("deliveries: \(WebhookDelivery.Status.allCases.map { "\(counts[$0] ?? 0) \($0.rawValue)" }.joined(separator: ", "))")
        }
    }

    struct Remove: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove an endpoint: nothing more is written or sent to it.")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "The app's bundle ID.") var app: String
        @Argument(help: "The endpoint's ID (we_…).") var id: String

        func run() async throws {
            let (app, id) = (app, id)
            let removed = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.webhooks")) { store -> Bool in
                let webhooks = store.forApp(BundleID(app)).webhookStore()
                guard var endpoint = try await webhooks.endpoint(id: id), endpoint.removedAt == nil else { return false }
                endpoint.removedAt = Date()
                try await webhooks.updateEndpoint(endpoint)
                return true
            }
            guard removed else { throw CommandFailure("no endpoint \(id) for \(app)") }
            print("removed endpoint \(id) of \(app)")
        }
    }

    struct Replay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Send an endpoint's failed deliveries again (all, or the ones named).")

        @Option(help: "sqlite:PATH or postgres://user:password@host:port/database?sslmode=disable")
        var database: String = ProcessInfo.processInfo.environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        @Option(help: "The app's bundle ID.") var app: String
        @Option(name: .customLong("delivery"), help: "A failed delivery's ID; repeatable (default: every failed one).") var deliveries: [Int64] = []
        @Argument(help: "The endpoint's ID (we_…).") var id: String

        func run() async throws {
            let (app, id, ids) = (app, id, deliveries.isEmpty ? nil : deliveries)
            let count = try await CommandInputs.withExistingLedger(database, logger: Logger(label: "entitle.webhooks")) { store -> Int? in
                let webhooks = store.forApp(BundleID(app)).webhookStore()
                guard try await webhooks.endpoint(id: id) != nil else { return nil }
                return try await webhooks.replay(endpointID: id, ids: ids, at: Date())
            }
            guard let count else { throw CommandFailure("no endpoint \(id) for \(app)") }
            print("\(count) failed \(count == 1 ? "delivery" : "deliveries") of \(id) will be sent again by the server")
        }
    }
}
