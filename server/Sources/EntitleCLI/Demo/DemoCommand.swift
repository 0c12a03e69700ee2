import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import AsyncHTTPClient
import Crypto
import EntitleCore
import EntitleExamples
import EntitleServer
import EntitleStorage
import Foundation
import Hummingbird
import LocalAppStore
import Logging
import ServiceLifecycle
import UnixSignals
import NIOConcurrencyHelpers

/// `entitle demo`: the server on an embedded SQLite ledger, the local App Store playing a population
/// of subscribers through it in simulated time, a summary checked against the subscriber API, then
/// the server keeps serving for exploration.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Run Entitle with a simulated population from the local App Store.",
        discussion: """
            Starts the server on an embedded SQLite ledger (a new temporary folder unless --data is given)
            with an example app's catalog, trusting a local certificate authority shaped like Apple's
            (kept in DATA/local-store). The local App Store then plays --subscribers people over --months
            simulated months, ending now: app-managed trials, purchases, renewals, cancellations, billing
            failures and recoveries, refunds, upgrades, family sharing. Every transaction and notification is
            signed and goes through the same verification as Apple's. The summary compares what the store
            expects with what GET /v1/subscribers/{id} reports; then the server keeps serving until Ctrl-C.
            """)

    @OptionGroup var logging: LogOptions

    @Option(help: "An example app (ScreenTimeRewards, ScreenTimeRewardsTiers, Epilogue, PantryPal, MagicalStories), an app folder, or all (the four seed apps in one server).")
    var app = "ScreenTimeRewards"
    @Option(help: "The data folder (default: a new temporary folder).", completion: .directory) var data: String?
    @Option(help: "The address to listen on.") var host = "127.0.0.1"
    @Option(help: "The port to listen on (1 to 65535: the simulated apps and the local App Store are told it).") var port = 8080
    @Option(help: "How many people arrive.") var subscribers = 2000
    @Option(help: "How many months are simulated, ending now.") var months = 12
    @Option(help: "The random seed: the same seed plays the same population.") var seed: UInt64 = 1
    @Flag(help: "Deliver notifications out of order and some twice, as Apple may.") var shuffle = false
    @Option(name: .customLong("drop-notifications"), help: "The share of notifications never delivered, 0 to 0.9 (they stay in the local App Store's Notification History).")
    var dropNotifications = 0.0
    @Flag(inversion: .prefixedNo, help: "Reconcile with the local App Store Server API every simulated week, and at the end.")
    var reconcile = true
    @OptionGroup var webhookOptions: WebhookOptions
    @OptionGroup var exchangeRates: ExchangeRatesOption
    @Flag(name: .customLong("exit"), help: "Stop after the summary instead of serving (exit 1 if the API disagrees with the store).")
    var exitAfterSummary = false

    func validate() throws {
        guard (1...200_000).contains(subscribers) else { throw ValidationError("--subscribers is 1 to 200000") }
        guard (1...60).contains(months) else { throw ValidationError("--months is 1 to 60") }
        // The local App Store and the simulated apps are given the server's address before it listens, so
        // an ephemeral port (0) would send them nowhere.
        guard (1...65535).contains(port) else { throw ValidationError("--port is 1 to 65535") }
        guard (0...0.9).contains(dropNotifications) else { throw ValidationError("--drop-notifications is 0 to 0.9") }
    }

    func run() async throws {
        CrashSocketRelease.install()
        let logger = logging.logger(label: "entitle.demo", fallback: .warning)
        let appFolders = app == "all" ? Self.allApps.compactMap(ExampleApps.folder(named:)) : [try Self.appFolder(app)]
        let loaded = try appFolders.map { folder in (folder, try CommandInputs.catalog(folder)) }
        let dataFolder = data.map { URL(fileURLWithPath: $0, isDirectory: true) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("entitle-demo-\(UUID().uuidString.prefix(8).lowercased())")
        let realNow = Date()
        let authority = try LocalCertificateAuthority.openOrCreate(folder: dataFolder.appendingPathComponent("local-store"), now: realNow)
        var plan = PopulationPlan()
        plan.subscribers = subscribers
        plan.months = months
        plan.seed = seed
        let secretKey = APIKeys.generateSecretKey()
        let keys = try APIKeys(secretKeys: [secretKey], publicKeySecret: try ServeCommand.persistentSecret(in: dataFolder))
        let databasePath = dataFolder.appendingPathComponent("entitle.sqlite").path
        let baseURL = "http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)"
        let options = DeliveryOptions(shuffle: shuffle, duplicateProbability: shuffle ? 0.1 : 0, dropProbability: dropNotifications, seed: seed)
        // The team's in-app purchase key: it signs the server's App Store Server API tokens and promotional
        // offers; the local App Store Server API of each app accepts tokens it signs.
        let localStoreFolder = dataFolder.appendingPathComponent("local-store")
        let teamKey = try DemoTeamKey.openOrCreate(folder: localStoreFolder)
        guard let base = URL(string: baseURL), let serverAPIURL = URL(string: baseURL + LocalServerAPIController.prefix) else {
            throw ValidationError("--host \(host) and --port \(port) make no URL")
        }
        // The client every part of the demo sends with, shut down however the demo ends (a client dropped
        // unshut stops a debug build).
        try await Self.withHTTPClient { http in
            let webhook = NotificationDelivery(url: baseURL + "/v1/app-store/notifications", client: http, logger: logger)
            let (host, port, exitAfterSummary) = (host, port, exitAfterSummary)
            let several = appFolders.count > 1

            // Each app: its catalog, a bundle ID of its own, its population on a clock of its own.
            var simulations: [DemoSimulation] = []
            var catalogs: [(bundleID: String, catalog: Catalog)] = []
            var serverAPIs: [String: LocalServerAPI] = [:]
            let reconcileEvery: TimeInterval? = reconcile ? 7 * 86_400 : nil
            for (folder, catalog) in loaded {
                let bundleID = "com.entitle.demo.\(folder.lastPathComponent.lowercased())"
                let clock = SimulationClock(start: PopulationSimulation.start(of: plan, end: realNow), realTime: { Date() })
                let store = StoreSimulator(catalog: catalog, bundleID: bundleID, environment: .sandbox, signer: authority.signer)
                let serverAPI = LocalServerAPI(
                    credentials: .init(keyID: teamKey.keyID, issuerID: teamKey.issuerID, bundleID: bundleID, publicKey: teamKey.privateKey.publicKey),
                    pageSize: 20, store: .init(signer: authority.signer, deliver: { signed in (try? await webhook.deliver(signedPayload: signed)) != nil }),
                    now: { clock.now() })
                serverAPIs[bundleID] = serverAPI
                catalogs.append((bundleID, catalog))
                simulations.append(DemoSimulation(
                    plan: plan, store: store, end: realNow, clock: clock, baseURL: baseURL, base: base, secretKey: secretKey, http: http, delivery: options,
                    logger: logger, exitAfterSummary: true, app: several ? bundleID : nil, history: serverAPI, reconcileEvery: reconcileEvery))
            }
            let webhooks = try webhookOptions.webhooks(environment: [:], apps: catalogs.map(\.bundleID))
            let run = DemoRun(simulations: simulations, exitAfterSummary: exitAfterSummary, sendsWebhooks: !webhooks.isEmpty)
            // The local App Store apps buy from over HTTP (EntitleKit's LocalStore, the sample app), beside the API.
            let appStores = Dictionary(uniqueKeysWithValues: catalogs.map { app in
                (app.bundleID, StoreSimulator(
                    catalog: app.catalog, bundleID: app.bundleID, environment: .sandbox, signer: authority.signer,
                    firstIdentifier: 3_000_000_000_000_001))
            })
            let localStore = LocalStoreController(
                accounts: LocalStoreAccounts(stores: appStores),
                delivery: NotificationDelivery(url: baseURL + "/v1/app-store/notifications", client: http, logger: logger), now: run.now,
                offerKeys: [teamKey.keyID: teamKey.privateKey.publicKey])
            guard let signer = CustomerInfoSigner(base64URL: try ServeCommand.persistentSecret(
                in: dataFolder, file: "customer-info-signing-key", generate: CustomerInfoSigner.generateKey))
            else { throw CommandFailure("the signing key in \(dataFolder.path) is not an Ed25519 key") }
            run.sampleApp = (signer.publicKey, catalogs[0].bundleID)
            let served = catalogs.map { app in
                let verifiers = [SignedDataVerifier(
                    configuration: VerifierConfiguration(bundleID: app.bundleID, environment: .sandbox, rootCertificates: [authority.root]),
                    now: run.now)]
                return ServedApp(
                    bundleID: BundleID(app.bundleID), catalog: app.catalog, verifiers: verifiers,
                    serverAPI: AppStoreServerAPIClient(
                        token: teamKey.token(bundleID: app.bundleID), endpoints: .init(production: serverAPIURL, sandbox: serverAPIURL),
                        transport: AsyncHTTPClientTransport(client: http), verifiers: verifiers, now: run.now),
                    offerKey: teamKey)
            }
            DemoOutput.line("""
                Entitle demo: \(appFolders.map(\.lastPathComponent).joined(separator: ", ")), \(subscribers) people \(several ? "each " : "")over \(months) months (seed \(seed))
                  data folder   \(dataFolder.path)
                  server        \(baseURL)
                  secret key    \(secretKey)
                  App Store Server API (local) \(serverAPIURL.absoluteString)
                    key \(DemoTeamKey.file(in: localStoreFolder).path), key ID \(teamKey.keyID), issuer ID \(teamKey.issuerID)
                """)
            var configuration = ServerConfiguration(
                http: HTTPConfiguration(host: host, port: port), ledger: .database(.sqlite(path: databasePath)), apps: served, keys: keys,
                now: run.now, logger: logger, signer: signer)
            // The demo reconciles in simulated time (every simulated week); none in the background.
            configuration.reconciliationInterval = nil
            configuration.staticWebhooks = webhooks
            configuration.webhookLease = try webhookOptions.leaseDuration(environment: [:])
            configuration.webhookSigningClock = { Date() }
            configuration.exchangeRates = try exchangeRates.load()
            let localServerAPI = LocalServerAPIController(apis: serverAPIs)
            configuration.extraRoutes = { router in
                localStore.addRoutes(to: router)
                localServerAPI.addRoutes(to: router)
            }
            let server = try await buildApplication(configuration: configuration)
            var group = ServiceGroupConfiguration(
                services: [
                    .init(service: server),
                    .init(service: run, successTerminationBehavior: exitAfterSummary ? .gracefullyShutdownGroup : .ignore),
                ],
                gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
            // Ctrl-C ends the demo within seconds, whatever it is doing.
            group.maximumGracefulShutdownDuration = ServeCommand.gracefulShutdownLimit
            try await ServiceGroup(configuration: group).run()
            if exitAfterSummary, run.disagreed { throw ExitCode(1) }
        }
    }

    /// Runs `body` with an HTTP client, shut down after it, whether it returned or threw.
    static func withHTTPClient(_ body: (HTTPClient) async throws -> Void) async throws {
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            try await body(http)
        } catch {
            try? await http.shutdown()
            throw error
        }
        try await http.shutdown()
    }

    /// The apps `--app all` plays into one server: the four seed apps.
    static let allApps = ["ScreenTimeRewards", "Epilogue", "PantryPal", "MagicalStories"]

    /// An example's folder by name (shipped with the binary), or the folder given.
    static func appFolder(_ app: String) throws -> URL {
        if let example = ExampleApps.folder(named: app) { return example }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: app, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("--app: \(app) is neither an example (\(ExampleApps.names.joined(separator: ", "))) nor a folder")
        }
        return URL(fileURLWithPath: app, isDirectory: true)
    }
}
