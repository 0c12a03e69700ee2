import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import EntitleAnalytics
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import Hummingbird
import LocalAppStore
import Logging
import ServiceLifecycle
import UnixSignals
import X509

/// `entitle serve`: runs the server until SIGTERM or SIGINT, then shuts down gracefully.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the Entitle server.",
        discussion: """
            With no options, serves on 127.0.0.1:8080 from ./entitle-data/entitle.sqlite with an empty
            catalog. Every option can also be set by an environment variable (ENTITLE_HOST, ENTITLE_PORT,
            ENTITLE_DATABASE, ENTITLE_CATALOG (comma separated), ENTITLE_BUNDLE_ID, ENTITLE_APP_APPLE_ID, ENTITLE_ENVIRONMENTS
            (comma separated), ENTITLE_SECRET_KEYS (comma separated), ENTITLE_PUBLIC_KEY_SECRET, ENTITLE_RESTORE_POLICY,
            ENTITLE_TRUST_LOCAL_STORE=1, ENTITLE_CHECK_REVOCATION=1, ENTITLE_REVOCATION_FRESHNESS, ENTITLE_APP_STORE_KEY,
            ENTITLE_APP_STORE_KEY_ID, ENTITLE_APP_STORE_ISSUER_ID (comma separated, each [BUNDLE_ID=]value), ENTITLE_APP_STORE_API_URL,
            ENTITLE_RECONCILE_INTERVAL);
            options win.
            """)

    @OptionGroup var logging: LogOptions
    @OptionGroup var tracing: TraceOptions

    @Option(help: "The address to listen on.") var host: String?
    @Option(help: "The port to listen on.") var port: Int?
    @Option(help: "sqlite:PATH, postgres://user:password@host:port/database?sslmode=disable, or memory: (nothing kept when it stops)") var database: String?
    @Option(help: "An app folder with entitlements.json and its .storekit file; repeatable, one per app (the first is the primary app).", completion: .directory)
    var catalog: [String] = []
    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier (defaults to the catalog's).") var bundleID: String?
    @Option(name: .customLong("app-apple-id"), help: "The app's Apple ID, required to accept production data.") var appAppleID: Int64?
    @Option(name: .customLong("environment"), help: "An accepted environment: production, sandbox, xcode, local-testing; repeatable.")
    var environments: [VerifyCommand.EnvironmentOption] = []
    @Option(name: .customLong("root-certificate"), help: "A trusted root (DER or PEM) replacing Apple Root CA - G3; repeatable.")
    var rootCertificates: [String] = []
    @Option(name: .customLong("xcode-certificate"), help: "The StoreKit Testing certificate exported from Xcode; repeatable.")
    var xcodeCertificates: [String] = []
    @Option(name: .customLong("secret-key"), help: "A secret API key (sk_… or sha256:<hex>); repeatable.") var secretKeys: [String] = []
    @Option(name: .customLong("restore-policy"), help: "When a purchase another subscriber owns is submitted: keep (refuse) or transfer (move it).")
    var restorePolicy: String?
    @Flag(name: .customLong("trust-local-store"), help: "Also trust the local App Store's root (DATA/local-store, created when missing), for simulated data.")
    var trustLocalStore = false
    @Option(name: .customLong("public-key-secret"), help: "The secret public keys are derived from (default: generated once in the data folder).")
    var publicKeySecret: String?
    @Option(name: .customLong("signing-key"), help: "The Ed25519 key subscriber answers are signed with, base64url (default: generated once in the data folder).")
    var signingKey: String?
    @Flag(name: .customLong("check-revocation"), help: "Ask the certificates' OCSP responders whether they were revoked before trusting signed data (off by default).")
    var checkRevocation = false
    @Option(name: .customLong("revocation-freshness"), help: "With --check-revocation: seconds a chain confirmed good is trusted before it is asked about again (default 3600).")
    var revocationFreshness: Double?
    @Option(name: .customLong("app-store-key"), help: "An in-app purchase key's .p8 file (App Store Connect), [BUNDLE_ID=]FILE; repeatable. Turns on the App Store Server API and promotional offers.", completion: .file())
    var appStoreKeys: [String] = []
    @Option(name: .customLong("app-store-key-id"), help: "The key's ID, [BUNDLE_ID=]ID; repeatable.") var appStoreKeyIDs: [String] = []
    @Option(name: .customLong("app-store-issuer-id"), help: "The team's issuer ID (App Store Connect, Users and Access, Integrations), [BUNDLE_ID=]ID; repeatable.")
    var appStoreIssuerIDs: [String] = []
    @Option(name: .customLong("app-store-api-url"), help: "Where the App Store Server API is, replacing Apple's production and sandbox hosts (a local stand-in to rehearse against).")
    var appStoreAPIURL: String?
    @Option(name: .customLong("app-store-pace"), help: "apple (default): calls to the App Store Server API kept within Apple's rate limits; none: not paced (a stand-in, a proxy that limits on its own).")
    var appStorePace: String?
    @Option(name: .customLong("reconcile-interval"), help: "Seconds between reconciliation passes with the App Store Server API (default 3600; 0: only on request).")
    var reconcileInterval: Double?
    @Option(name: .customLong("idle-timeout"), help: "Seconds a connection may send nothing before it is closed (default 60; 1 to 3600).")
    var idleTimeout: Int?
    @Option(name: .customLong("body-timeout"), help: "Seconds a request's body may take to arrive in full after its head (default 60; 1 to 3600).")
    var bodyTimeout: Int?
    @Option(name: .customLong("max-connections"), help: "Connections open at once; more wait until one closes (default: 3/4 of the file descriptor limit, at most 10000).")
    var maximumConnections: Int?
    @OptionGroup var exchangeRates: ExchangeRatesOption
    @OptionGroup var webhookOptions: WebhookOptions

    func validate() throws {
        if revocationFreshness != nil, !checkRevocation {
            throw ValidationError("--revocation-freshness applies with --check-revocation")
        }
        if let seconds = revocationFreshness, !(0...86_400).contains(seconds) {
            throw ValidationError("--revocation-freshness is 0 to 86400 seconds")
        }
        if let seconds = idleTimeout, !(1...3_600).contains(seconds) {
            throw ValidationError("--idle-timeout is 1 to 3600 seconds")
        }
        if let seconds = bodyTimeout, !(1...3_600).contains(seconds) {
            throw ValidationError("--body-timeout is 1 to 3600 seconds")
        }
        if let count = maximumConnections, !(1...1_000_000).contains(count) {
            throw ValidationError("--max-connections is 1 to 1000000")
        }
        if let seconds = reconcileInterval, !(seconds == 0 || (60...604_800).contains(seconds)) {
            throw ValidationError("--reconcile-interval is 0 (only on request) or 60 to 604800 seconds")
        }
    }

    func run() async throws {
        CrashSocketRelease.install()
        let environment = ProcessInfo.processInfo.environment
        let logger = logging.logger(label: "entitle")
        let host = host ?? environment["ENTITLE_HOST"] ?? "127.0.0.1"
        let port = try port ?? environment["ENTITLE_PORT"].map { value in
            guard let port = Int(value), (0...65535).contains(port) else { throw ValidationError("ENTITLE_PORT must be a port number") }
            return port
        } ?? 8080
        let database = database ?? environment["ENTITLE_DATABASE"] ?? "sqlite:entitle-data/entitle.sqlite"
        let idleSeconds = try Self.whole(idleTimeout, environment, "ENTITLE_IDLE_TIMEOUT", 1...3_600, unit: "seconds") ?? 60
        let bodySeconds = try Self.whole(bodyTimeout, environment, "ENTITLE_BODY_TIMEOUT", 1...3_600, unit: "seconds") ?? 60
        let connections = try Self.whole(maximumConnections, environment, "ENTITLE_MAX_CONNECTIONS", 1...1_000_000, unit: "")

        let catalogPaths = catalog.isEmpty
            ? (environment["ENTITLE_CATALOG"]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? [])
            : catalog
        if catalogPaths.isEmpty {
            logger.warning("no catalog: every subscriber has no entitlement; start with --catalog DIR")
        }
        let appAppleID = try appAppleID ?? environment["ENTITLE_APP_APPLE_ID"].map { value in
            guard let id = Int64(value) else { throw ValidationError("ENTITLE_APP_APPLE_ID must be a number") }
            return id
        }
        var flagged = environments.map(\.environment)
        if flagged.isEmpty, let list = environment["ENTITLE_ENVIRONMENTS"] {
            flagged = try list.split(separator: ",").map { name in
                guard let option = VerifyCommand.EnvironmentOption(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("ENTITLE_ENVIRONMENTS: \(name) is not production, sandbox, xcode or local-testing")
                }
                return option.environment
            }
        }
        let bundleOverride = bundleID ?? environment["ENTITLE_BUNDLE_ID"]
        if catalogPaths.count > 1, bundleOverride != nil {
            throw ValidationError("--bundle-id applies to one app; with several --catalog folders each entitlements.json says its bundleID")
        }
        // Each app: its catalog, its bundle ID, App Apple ID and environments (the folder's own, else the flags').
        var apps: [(catalog: Catalog, bundleID: String, appAppleID: Int64?, environments: [AppStoreModels.Environment])] = []
        for path in catalogPaths.isEmpty ? [nil] : catalogPaths.map(Optional.some) {
            let catalog = try CommandInputs.catalog(path: path)
            let bundleID = bundleOverride ?? catalog.bundleID?.rawValue
            if bundleID == nil {
                if catalogPaths.count > 1 { throw ValidationError("\(path ?? "the catalog") says no bundleID: add \"bundleID\" to its entitlements.json") }
                logger.warning("no bundle id: signed data is refused until --bundle-id (or a catalog with one) is given")
            }
            var accepted = catalog.environments.compactMap { VerifyCommand.EnvironmentOption(rawValue: $0)?.environment }
            if accepted.isEmpty { accepted = flagged }
            if accepted.isEmpty { accepted = [.production, .sandbox] }
            apps.append((catalog, bundleID ?? "", catalog.appAppleID ?? appAppleID, accepted))
        }
        let duplicates = Dictionary(grouping: apps.map(\.bundleID), by: { $0 }).filter { $0.value.count > 1 }.keys
        if let duplicate = duplicates.first {
            throw ValidationError("two --catalog folders are the same app, \(duplicate)")
        }
        let ledger = try CommandInputs.database(database)
        let dataFolder = ledger.folder ?? URL(fileURLWithPath: "entitle-data")
        var roots = try rootCertificates.map(VerifyCommand.loadCertificate)
        if roots.isEmpty { roots = [AppleRootCertificates.appleRootCAG3] }
        if trustLocalStore || environment["ENTITLE_TRUST_LOCAL_STORE"] == "1" {
            let folder = dataFolder.appendingPathComponent("local-store")
            roots.append(try LocalCertificateAuthority.openOrCreate(folder: folder, now: Date()).root)
            logger.warning("trusting the local App Store in \(folder.path): data it signs is accepted like Apple's")
        }
        let xcode = try xcodeCertificates.map(VerifyCommand.loadCertificate)
        let revocation = try Self.revocation(
            enabled: checkRevocation || environment["ENTITLE_CHECK_REVOCATION"] == "1",
            freshness: revocationFreshness, environment: environment)
        if let revocation {
            logger.info("revocation checks on: each chain is confirmed with its OCSP responder, then trusted for \(Int(revocation.freshness)) s")
        }
        let appStore = try AppStoreAccessOptions(
            keyFiles: appStoreKeys, keyIDs: appStoreKeyIDs, issuerIDs: appStoreIssuerIDs, apiURL: appStoreAPIURL, pace: appStorePace,
            environment: environment)
        if let appStore {
            logger.info("App Store Server API on (\(appStore.description)) at \(appStore.endpoints.production), \(appStore.paced ? "paced within Apple's rate limits" : "not paced")")
        }
        if let appStore, let stray = appStore.keys.keys.first(where: { scope in !scope.isEmpty && !apps.contains { $0.bundleID == scope } }) {
            throw ValidationError("--app-store-key names \(stray), which is not an app this server serves")
        }
        let served = apps.map { app in
            let verifiers = app.environments.map { environment in
                SignedDataVerifier(
                    configuration: VerifierConfiguration(
                        bundleID: app.bundleID, environment: environment, appAppleID: app.appAppleID, rootCertificates: roots,
                        xcodeCertificates: xcode, revocation: revocation),
                    now: { Date() })
            }
            return ServedApp(
                bundleID: BundleID(app.bundleID), catalog: app.catalog, verifiers: verifiers,
                serverAPI: appStore?.client(bundleID: app.bundleID, verifiers: verifiers, now: { Date() }), offerKey: appStore?.key(for: app.bundleID))
        }
        let interval = try reconcileInterval ?? environment["ENTITLE_RECONCILE_INTERVAL"].map { value in
            guard let seconds = Double(value), seconds == 0 || (60...604_800).contains(seconds) else {
                throw ValidationError("ENTITLE_RECONCILE_INTERVAL is 0 or 60 to 604800 seconds")
            }
            return seconds
        } ?? 3600
        let secretKeys = secretKeys.isEmpty ? (environment["ENTITLE_SECRET_KEYS"]?.split(separator: ",").map(String.init) ?? []) : secretKeys
        if secretKeys.isEmpty {
            logger.warning("no secret key: only public keys work; add --secret-key sk_… to reach every subscriber")
        }
        let publicSecret = try publicKeySecret ?? environment["ENTITLE_PUBLIC_KEY_SECRET"] ?? Self.persistentSecret(in: dataFolder)
        let keys: APIKeys
        do {
            keys = try APIKeys(secretKeys: secretKeys, publicKeySecret: publicSecret)
        } catch {
            throw ValidationError(error.message)
        }

        let signerText = try signingKey ?? environment["ENTITLE_SIGNING_KEY"] ?? Self.persistentSecret(
            in: dataFolder, file: "customer-info-signing-key", generate: CustomerInfoSigner.generateKey)
        guard let signer = CustomerInfoSigner(base64URL: signerText) else {
            throw ValidationError("--signing-key is an Ed25519 private key: 32 bytes, base64url")
        }
        logger.info("subscriber answers are signed (Ed25519); apps pin the public key \(signer.publicKey), also at GET /v1/signing-key")

        let policyName = restorePolicy ?? environment["ENTITLE_RESTORE_POLICY"] ?? RestorePolicy.transferToNewest.rawValue
        guard let policy = RestorePolicy(rawValue: policyName) else {
            throw ValidationError("--restore-policy is keep or transfer")
        }

        let described = apps.map { "\($0.bundleID.isEmpty ? "(no bundle ID)" : $0.bundleID) [\($0.environments.map(\.rawValue).joined(separator: ", "))]" }
        let listening = "Entitle listening on http://\(host):\(port) (ledger \(ledger); \(apps.count == 1 ? "app" : "apps") \(described.joined(separator: "; ")))"
        var configuration = ServerConfiguration(
            http: HTTPConfiguration(host: host, port: port, idleTimeout: .seconds(idleSeconds), bodyTimeout: .seconds(bodySeconds),
                maximumConnections: connections),
            ledger: .database(ledger), apps: served, keys: keys,
            restorePolicy: policy, now: { Date() }, logger: logger, onServerRunning: { _ in print(listening) }, signer: signer)
        configuration.reconciliationInterval = interval == 0 ? nil : .milliseconds(Int64(interval * 1000))
        configuration.exchangeRates = try exchangeRates.load()
        if let rates = configuration.exchangeRates { logger.info("reports in \(rates.currency) at the rates of \(rates.date)") }
        configuration.staticWebhooks = try webhookOptions.webhooks(environment: environment, apps: apps.map(\.bundleID))
        configuration.webhookLease = try webhookOptions.leaseDuration(environment: environment)
        if !configuration.staticWebhooks.isEmpty {
            logger.info("webhooks to \(configuration.staticWebhooks.map { ($0.forwardsNotifications ? "(forwarding) " : "") + ($0.app.map { "\($0)=" } ?? "") + $0.url }.joined(separator: ", "))")
        }
        // Before the application: its router adds the tracing middleware only under a tracer.
        let exporter = try tracing.bootstrap(logger: logger)
        let application = try await buildApplication(configuration: configuration)
        try await ServeCommand.run(application, logger: logger, exporter: exporter)
    }

    /// How long a graceful shutdown (SIGTERM, SIGINT) may take before what is still running is cancelled:
    /// requests under way get this long to finish, and the process ends within 10 s of the signal.
    static let gracefulShutdownLimit: Duration = .seconds(7)

    /// Runs `application` (and its background services) until SIGTERM or SIGINT, then shuts it down within
    /// ``gracefulShutdownLimit``.
    /// A trace exporter, when given, starts first and stops last, sending the spans of the shutdown too.
    static func run(_ application: some ApplicationProtocol & Service, logger: Logger, exporter: (any Service)? = nil) async throws {
        let services: [any Service] = (exporter.map { [$0] } ?? []) + [application]
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = gracefulShutdownLimit
        try await ServiceGroup(configuration: configuration).run()
    }

    /// Online revocation checking when asked for: OCSP over HTTP, each confirmed chain trusted for
    /// `freshness` seconds.
    static func revocation(enabled: Bool, freshness: Double?, environment: [String: String]) throws -> RevocationChecking? {
        guard enabled else { return nil }
        let seconds = try freshness ?? environment["ENTITLE_REVOCATION_FRESHNESS"].map { value in
            guard let seconds = Double(value) else { throw ValidationError("ENTITLE_REVOCATION_FRESHNESS must be a number of seconds") }
            return seconds
        } ?? 3600
        guard (0...86_400).contains(seconds) else { throw ValidationError("ENTITLE_REVOCATION_FRESHNESS is 0 to 86400 seconds") }
        return RevocationChecking(transport: HTTPClientRevocationTransport(), freshness: seconds)
    }

    /// A secret kept in the data folder (created once, readable by the owner only): the public-key
    /// secret by default.
    static func persistentSecret(
        in folder: URL, file name: String = "public-key-secret", generate: () -> String = APIKeys.generateSecretKey
    ) throws -> String {
        let file = folder.appendingPathComponent(name)
        if let existing = try? String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !existing.isEmpty {
            return existing
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let secret = generate()
        guard FileManager.default.createFile(atPath: file.path, contents: Data(secret.utf8), attributes: [.posixPermissions: 0o600]) else {
            throw ValidationError("cannot write \(file.path)")
        }
        return secret
    }

    /// The option's value, else the environment variable `name` read as a whole number in `range`.
    private static func whole(
        _ option: Int?, _ environment: [String: String], _ name: String, _ range: ClosedRange<Int>, unit: String
    ) throws -> Int? {
        try option ?? environment[name].map { value in
            guard let number = Int(value), range.contains(number) else {
                throw ValidationError("\(name) is \(range.lowerBound) to \(range.upperBound)\(unit.isEmpty ? "" : " " + unit)")
            }
            return number
        }
    }
}
