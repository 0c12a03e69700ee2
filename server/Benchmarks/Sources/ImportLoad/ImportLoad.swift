import AppStoreServerAPI
import AsyncHTTPClient
import Crypto
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import LedgerPopulation
import LocalAppStore
import NIOCore

/// `entitle import` at scale against Apple's stand-in (``LocalServerAPI`` on loopback, which checks each
/// request's token as Apple does): customers of Epilogue who bought before the app used Entitle (Apple
/// knows their purchases, Entitle none), imported by `entitle import` as jobs of `entitle serve` (its own
/// process, paced at Apple's published limits: 50 requests a second an endpoint) — half from a plain CSV
/// with one malformed row, the server stopped (SIGTERM) a third of the way and started again while the
/// command runs, which is run again to follow the job to its end; half from a RevenueCat-shaped export —
/// then every customer's answer compared with what Apple says of them, and the first file imported again.
///
///     swift build -c release --product entitle
///     swift run --package-path Benchmarks -c release ImportLoad [--sizes 10000]
@main
enum ImportLoad {
    static let port = 18_135
    static let applePort = 18_136
    static let key = "sk_import_load_key_0001"
    static let app = "com.epilogue.app"

    static func main() async throws {
        let arguments = PopulationArguments(defaultSizes: [10_000])
        let size = arguments.sizes.last ?? 10_000
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let binary = ProcessInfo.processInfo.environment["ENTITLE_BINARY"] ?? root.appendingPathComponent(".build/release/entitle").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            say("no binary at \(binary): run `swift build -c release --product entitle` first")
            exit(2)
        }
        let catalogFolder = try SignedPopulation.catalogs(from: root, into: folder.appendingPathComponent("catalogs"))[1]
        let catalog = try CatalogLoader().load(directory: catalogFolder)
        let authority = try LocalCertificateAuthority.create(now: Date().addingTimeInterval(-86_400))
        let rootFile = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(authority.root)).write(to: rootFile)
        let teamKey = InAppPurchaseKey(privateKey: P256.Signing.PrivateKey(), keyID: "IMPORTKEY1", issuerID: "issuer-import-load")
        let keyFile = folder.appendingPathComponent("SubscriptionKey_IMPORTKEY1.p8")
        try teamKey.privateKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let api = LocalServerAPI(
            credentials: .init(keyID: teamKey.keyID, issuerID: teamKey.issuerID, bundleID: app, publicKey: teamKey.privateKey.publicKey),
            pageSize: 20, store: .init(signer: authority.signer, deliver: { _ in false }), now: { Date() })
        let apple = AppleStandIn(api: api, port: applePort)
        try await apple.start()
        defer { Task { await apple.stop() } }

        // The customers: a yearly plan bought in the last 300 days, or a monthly one in the last 25 (its
        // first period). Apple's stand-in holds each transaction as it signed it.
        say("\(size) customers of \(app) who bought before the app used Entitle")
        var simulator = StoreSimulator(catalog: catalog, bundleID: app, environment: .sandbox, signer: authority.signer)
        var generator = SeededGenerator(seed: 7)
        var customers: [(appUserID: String, original: String, transactionID: String, expires: Date?)] = []
        let now = Date()
        for index in 0..<size {
            let annual = index % 4 == 0
            let bought = now.addingTimeInterval(-Double(Int.random(in: 1...(annual ? 300 : 25), using: &generator)) * 86_400)
            let purchase = try simulator.purchase(annual ? "com.epilogue.plus.annual" : "com.epilogue.plus.monthly", at: bought, introductoryOffer: false)
            api.record(transaction: purchase.signedTransaction, purchase.transaction)
            customers.append((
                "customer-\(index)", purchase.originalTransactionID, purchase.transaction.transactionId ?? purchase.originalTransactionID,
                purchase.transaction.expiresDate))
        }
        let half = customers.count / 2
        let csv = folder.appendingPathComponent("customers.csv").path
        // Line 5 is malformed (a field too many): reported by its line, the others imported.
        let rows = customers.prefix(half).map { "\($0.appUserID),\($0.transactionID)\n" }
        try ("app_user_id,transaction_id\n" + rows.prefix(3).joined() + "broken,1,extra\n" + rows.dropFirst(3).joined())
            .write(toFile: csv, atomically: true, encoding: .utf8)
        let export = folder.appendingPathComponent("revenuecat.csv").path
        try ("rc_original_app_user_id,rc_last_seen_app_user_id_alias,country,product_identifier,store,store_transaction_id,original_store_transaction_id\n"
            + customers.suffix(from: half).map { "\($0.appUserID),\($0.appUserID),USA,plus,app_store,\($0.transactionID),\($0.original)\n" }.joined()
            + "android-1,android-1,USA,plus,play_store,GPA.1,GPA.1\n")
            .write(toFile: export, atomically: true, encoding: .utf8)

        // The server's log outside the folder: it outlives the run.
        let log = URL(fileURLWithPath: ProcessInfo.processInfo.environment["ENTITLE_SERVE_LOG"] ?? folder.appendingPathComponent("serve.log").path)
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let database = "sqlite:" + folder.appendingPathComponent("entitle.sqlite").path
        var server = try startServer(binary, database: database, catalog: catalogFolder, root: rootFile, keyFile: keyFile, teamKey: teamKey, log: log)
        defer {
            server.interrupt()
            server.waitUntilExit()
        }
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        try await waitUntilReady(http)
        let common = ["--server", "http://127.0.0.1:\(port)", "--secret-key", key]
        let clock = ContinuousClock()

        // The CSV: the server stopped a third of the way (a deploy) and started again; the command, cut off,
        // run again follows the same job to its end.
        let started = clock.now
        let first = Process()
        first.executableURL = URL(fileURLWithPath: binary)
        first.arguments = ["import", csv] + common
        let firstLog = folder.appendingPathComponent("first-import.log")
        _ = FileManager.default.createFile(atPath: firstLog.path, contents: nil)
        let firstOutput = try FileHandle(forWritingTo: firstLog)
        first.standardOutput = firstOutput
        first.standardError = firstOutput
        try first.run()
        let stopAt = Double(half) / 3 / 50
        try await Task.sleep(for: .seconds(stopAt))
        let stopping = clock.now
        server.terminate()
        server.waitUntilExit()
        say(String(format: "  server stopped (SIGTERM) after %.0f s: it exited in %.1f s with status %d", stopAt, seconds(clock.now - stopping), server.terminationStatus))
        first.waitUntilExit()
        say("  the command, cut off: " + ((try? String(contentsOf: firstLog, encoding: .utf8)) ?? "").split(separator: "\n").suffix(2).joined(separator: " | "))
        server = try startServer(binary, database: database, catalog: catalogFolder, root: rootFile, keyFile: keyFile, teamKey: teamKey, log: log)
        try await waitUntilReady(http)
        let resumed = try run(binary, ["import", csv] + common)
        let csvSeconds = seconds(clock.now - started)
        say("  run again: " + (resumed.output.split(separator: "\n").first.map(String.init) ?? ""))
        say("  " + (resumed.output.split(separator: "\n").last.map(String.init) ?? ""))
        say("  problems: " + resumed.errors.split(separator: "\n").prefix(3).joined(separator: " | "))
        say(String(format: "  CSV, %d customers: %.1f s in all, the restart included (%.1f customers/s); Apple allows 50 history and 50 status requests a second", half, csvSeconds, Double(half) / csvSeconds))

        let rcStarted = clock.now
        let rc = try run(binary, ["import", export, "--format", "revenuecat"] + common)
        let rcSeconds = seconds(clock.now - rcStarted)
        say("  " + (rc.output.split(separator: "\n").last.map(String.init) ?? ""))
        say(String(format: "  RevenueCat export, %d customers: %.1f s (%.1f customers/s)", customers.count - half, rcSeconds, Double(customers.count - half) / rcSeconds))

        // Every customer's answer against Apple's: an active Plus until the period's end Apple signed.
        var matching = 0
        for customer in customers {
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/subscribers/\(customer.appUserID)")
            request.headers.add(name: "Authorization", value: "Bearer \(key)")
            let response = try await http.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard let answer = try? WireJSON.decoder.decode(SubscriberResponse.self, from: Data(String(buffer: body).utf8)) else { continue }
            let expected = customer.expires
            let plus = answer.entitlements.first { $0.id == "plus" }
            if let plus, plus.isActive, let got = plus.expiresAt, let expected, abs(got.timeIntervalSince(expected)) < 1 {
                matching += 1
            } else if matching == 0, customer.appUserID == customers[0].appUserID {
                say("  first customer: expected Plus until \(expected.map { "\($0)" } ?? "-"), got \(answer.entitlements.map { "\($0.id) \($0.isActive) \($0.expiresAt.map { "\($0)" } ?? "-")" })")
            }
        }
        say("  answers equal to Apple's (Plus active until the period's end Apple signed): \(matching) of \(customers.count)")

        // Again: nothing new.
        let againStarted = clock.now
        let again = try run(binary, ["import", csv] + common)
        say(String(format: "  the CSV again: %.1f s; %@", seconds(clock.now - againStarted), again.output.split(separator: "\n").last.map(String.init) ?? ""))
        try await http.shutdown()
    }

    static func run(_ binary: String, _ arguments: [String]) throws -> (output: String, errors: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        let errors = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-import-errors-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errors) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = try FileHandle(forWritingTo: errors)
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: data, as: UTF8.self), (try? String(contentsOf: errors, encoding: .utf8)) ?? "", process.terminationStatus)
    }

    /// `entitle serve` over `database`, its output appended to `log`.
    static func startServer(
        _ binary: String, database: String, catalog: URL, root: URL, keyFile: URL, teamKey: InAppPurchaseKey, log: URL
    ) throws -> Process {
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "\(port)", "--database", database,
            "--catalog", catalog.path, "--root-certificate", root.path, "--environment", "sandbox", "--secret-key", key,
            "--public-key-secret", "import", "--app-store-key", keyFile.path, "--app-store-key-id", teamKey.keyID,
            "--app-store-issuer-id", teamKey.issuerID, "--app-store-api-url", "http://127.0.0.1:\(applePort)", "--reconcile-interval", "0",
        ]
        let output = try FileHandle(forWritingTo: log)
        output.seekToEndOfFile()
        server.standardOutput = output
        server.standardError = output
        try server.run()
        return server
    }

    static func waitUntilReady(_ http: HTTPClient) async throws {
        for _ in 0..<100 {
            if let response = try? await http.execute(HTTPClientRequest(url: "http://127.0.0.1:\(port)/ready"), timeout: .seconds(2)), response.status == .ok { return }
            try await Task.sleep(for: .milliseconds(200))
        }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
