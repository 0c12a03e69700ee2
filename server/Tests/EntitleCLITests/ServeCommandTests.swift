import EntitleTestSupport
import Foundation
import Hummingbird
import NIOConcurrencyHelpers
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("ServeCommand")
struct ServeCommandTests {
    /// Starts `entitle serve` in a fresh folder on a free port, calls it over HTTP, stops it with
    /// SIGTERM, and checks it shut down cleanly.
    @Test("entitle serve starts on a fresh folder, answers, and shuts down gracefully on SIGTERM")
    func serve() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let process = try CommandRunner.entitle.start(
            ["serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path, "--secret-key", "sk_serve_test_key_0001"],
            in: folder, standardOutput: .captured, standardError: .captured)
        defer { process.signal(SIGKILL) }

        var health: String?
        for _ in 0..<300 where health == nil {
            try await Task.sleep(for: .milliseconds(100))
            if let (data, _) = try? await TestHTTP.answer(from: URL(string: "http://127.0.0.1:\(port)/health")!) {
                health = String(decoding: data, as: UTF8.self)
            }
        }
        #expect(health == #"{"status":"ok"}"#)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/subscribers/parent-1/trial")!)
        request.httpMethod = "POST"
        request.setValue("Bearer sk_serve_test_key_0001", forHTTPHeaderField: "Authorization")
        let (_, response) = try await TestHTTP.answer(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        #expect(await process.stop() == .init(status: 0, signalled: false))
        let log = await Self.log(process)
        #expect(log.contains("Entitle listening on http://127.0.0.1:\(port)"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("entitle-data/entitle.sqlite").path))
    }

    /// Everything a stopped server wrote, standard output then standard error.
    static func log(_ process: ChildProcess) async -> String {
        let (_, output, error) = await process.output()
        return String(decoding: output + error, as: UTF8.self)
    }

    /// An OCSP responder on loopback HTTP for `issuer`, answering what `answer` holds at each request.
    static func withResponder(
        port: Int, issuer: TestPKI, answer: NIOLockedValueBox<OCSPResponder.Answer>, calls: NIOLockedValueBox<Int>,
        _ body: () async throws -> Void
    ) async throws {
        let responder = OCSPResponder(issuer: issuer.intermediate, issuerKey: issuer.intermediateKey)
        let router = Router()
        router.post("ocsp") { request, context -> Response in
            calls.withLockedValue { $0 += 1 }
            let body = try await request.body.collect(upTo: 64 * 1024)
            let der = try responder.respond(to: Array(buffer: body), answer: answer.withLockedValue { $0 }, now: Date())
            return Response(status: .ok, headers: [.contentType: "application/ocsp-response"], body: .init(byteBuffer: ByteBuffer(bytes: der)))
        }
        router.get("ready") { _, _ in "ready" }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            defer { group.cancelAll() }
            // The responder answers before the test asks anything of it.
            var ready = false
            for _ in 0..<300 where !ready {
                ready = (try? await TestHTTP.answer(from: URL(string: "http://127.0.0.1:\(port)/ready")!)) != nil
                if !ready { try await Task.sleep(for: .milliseconds(100)) }
            }
            try #require(ready, "the OCSP responder did not start")
            try await body()
        }
    }

    @Test("entitle serve --check-revocation asks the certificate's OCSP responder: good lets signed data in, revoked is refused, busy or unreachable is 503")
    func revocationChecks() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-ocsp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var (port, ocspPort) = (TestPorts.random(), TestPorts.random())
        while ocspPort == port { ocspPort = TestPorts.random() }
        var options = TestPKI.Options()
        options.ocspURI = "http://127.0.0.1:\(ocspPort)/ocsp"
        let pki = try TestPKI(options: options, reference: Date())
        let root = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(pki.root)).write(to: root)
        let answer = NIOLockedValueBox(OCSPResponder.Answer.good)
        let calls = NIOLockedValueBox(0)

        let process = try CommandRunner.entitle.start([
            "serve", "--port", "\(port)", "--root-certificate", root.path, "--bundle-id", "com.example", "--environment", "sandbox",
            "--secret-key", "sk_serve_test_key_0001", "--check-revocation", "--revocation-freshness", "0",
        ], in: folder, standardOutput: .captured, standardError: .captured)
        defer { process.signal(SIGKILL) }
        for _ in 0..<300 {
            if (try? await TestHTTP.answer(from: URL(string: "http://127.0.0.1:\(port)/health")!)) != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }

        func submit(_ id: String) async throws -> (Int, String) {
            let transaction = AppleFacts().subscription("com.example.monthly", original: id, purchase: Date(), expires: Date() + 30 * 86_400)
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/subscribers/parent-\(id)/transactions")!)
            request.httpMethod = "POST"
            request.setValue("Bearer sk_serve_test_key_0001", forHTTPHeaderField: "Authorization")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try JSONSerialization.data(withJSONObject: ["signedTransaction": pki.sign(transaction)])
            let (data, response) = try await TestHTTP.answer(for: request)
            let code = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["error"].flatMap { ($0 as? [String: Any])?["code"] as? String }
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, code ?? "")
        }

        try await Self.withResponder(port: ocspPort, issuer: pki, answer: answer, calls: calls) { () async throws in
            #expect(try await submit("1").0 == 200)
            #expect(calls.withLockedValue { $0 } >= 1)
            answer.withLockedValue { $0 = .revoked(at: Date() - 3600) }
            #expect(try await submit("2") == (400, "verification.certificateRevoked"))
            answer.withLockedValue { $0 = .tryLater }
            #expect(try await submit("3") == (503, "verification.revocationCheckUnavailable"))
        }
        #expect(try await submit("4") == (503, "verification.revocationCheckUnavailable"))

        await process.stop()
        let log = await Self.log(process)
        #expect(log.contains("revocation checks on"))
        #expect(!log.contains(pki.sign(AppleFacts().subscription("x", original: "x", purchase: Date(), expires: Date())).prefix(40)))
    }

    @Test("--revocation-freshness without --check-revocation, or out of range, is a usage error", arguments: [
        ["--revocation-freshness", "60"], ["--check-revocation", "--revocation-freshness", "-1"],
    ])
    func revocationUsage(_ arguments: [String]) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CommandRunner.entitle.run(["serve", "--port", "0"] + arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.standardError.contains("--revocation-freshness"))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("entitle-data").path))
    }

    @Test("PostgreSQL: a database URL naming a missing database exits 1 before serving, with PostgreSQL's reason and never the password")
    func missingPostgresDatabase() async throws {
        let variable = StorageEngine.postgresURLVariable
        let cluster = try #require(
            ProcessInfo.processInfo.environment[variable], "\(variable) is not set: run the tests with scripts/test.sh, which starts PostgreSQL")
        var url = try #require(URLComponents(string: cluster))
        url.password = "pw-never-printed"
        url.path = "/entitle_no_such_database"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-missing-db-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CommandRunner.entitle.run(["serve", "--port", "0", "--database", try #require(url.string)], in: folder)
        #expect(result.status == 1)
        #expect(result.standardError.contains(
            "storage.unavailable: PostgreSQL at \(url.host ?? ""):\(url.port ?? 5432) refused the connection: database \"entitle_no_such_database\" does not exist (SQLSTATE 3D000)"),
            "\(result.standardError)")
        #expect(!(result.standardError + result.standardOutput).contains("pw-never-printed"))
        #expect(!(result.standardError + result.standardOutput).contains("listening"))
    }

    @Test("App Store Server API keys: all three settings together, a readable P-256 key, a prefix naming a served app; a URL and a pace need a key, a pace is apple or none", arguments: [
        (["--app-store-key", "KEY"], "go together"),
        (["--app-store-key", "com.unknown.app=KEY", "--app-store-key-id", "com.unknown.app=K1", "--app-store-issuer-id", "com.unknown.app=I1"], "not an app this server serves"),
        (["--app-store-key", "Package.swift", "--app-store-key-id", "K1", "--app-store-issuer-id", "I1"], "not a P-256 private key"),
        (["--app-store-key", "KEY", "--app-store-key", "KEY", "--app-store-key-id", "K1", "--app-store-issuer-id", "I1"], "given twice"),
        (["--app-store-api-url", "http://127.0.0.1:1"], "applies with --app-store-key"),
        (["--app-store-pace", "none"], "applies with --app-store-key"),
        (["--app-store-key", "KEY", "--app-store-key-id", "K1", "--app-store-issuer-id", "I1", "--app-store-pace", "fast"], "is not apple or none"),
    ])
    func appStoreKeyUsage(_ arguments: [String], _ message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = Fixtures.root.appendingPathComponent("Tests/AppStoreServerAPITests/Keys/testSigningKey.p8").path
        let resolved = arguments.map { $0.replacingOccurrences(of: "KEY", with: key).replacingOccurrences(of: "Package.swift", with: Fixtures.root.appendingPathComponent("Package.swift").path) }
        let result = try await CommandRunner.entitle.run(
            ["serve", "--port", "0", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path] + resolved, in: folder)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(!result.standardError.contains("PRIVATE KEY"))
    }

    @Test("entitle serve --catalog A --catalog B serves both apps: each by its Entitle-App header, each app's data its own")
    func twoApps() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-apps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let process = try CommandRunner.entitle.start([
            "serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("Epilogue").path,
            "--catalog", Fixtures.examples.appendingPathComponent("PantryPal").path, "--secret-key", "sk_serve_test_key_0001",
        ], in: folder, standardOutput: .captured, standardError: .captured)
        defer { process.signal(SIGKILL) }
        for _ in 0..<300 {
            if (try? await TestHTTP.answer(from: URL(string: "http://127.0.0.1:\(port)/health")!)) != nil { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        func call(_ path: String, method: String = "GET", app: String?) async throws -> (Int, String) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.setValue("Bearer sk_serve_test_key_0001", forHTTPHeaderField: "Authorization")
            if let app { request.setValue(app, forHTTPHeaderField: "Entitle-App") }
            let (data, response) = try await TestHTTP.answer(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }
        #expect(try await call("/v1/subscribers/reader/trial", method: "POST", app: "com.epilogue.app").0 == 200)
        let epilogue = try await call("/v1/subscribers/reader", app: "com.epilogue.app")
        let pantry = try await call("/v1/subscribers/reader", app: "me.subasically.pantrypal")
        #expect(epilogue.0 == 200 && pantry.0 == 200)
        #expect(epilogue.1.contains(#""startedAt""#))
        #expect(!pantry.1.contains(#""startedAt""#))
        let unnamed = try await call("/v1/subscribers/reader", app: nil)
        #expect(unnamed.0 == 400 && unnamed.1.contains("request.unknownApp"))

        await process.stop()
        let log = await Self.log(process)
        #expect(log.contains("apps com.epilogue.app [Production, Sandbox]; me.subasically.pantrypal [Production, Sandbox]"), "\(log)")
    }

    @Test("two folders of one app, or --bundle-id with several, are usage errors")
    func appUsage() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let screenTime = Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path
        let tiers = Fixtures.examples.appendingPathComponent("ScreenTimeRewardsTiers").path
        let same = try await CommandRunner.entitle.run(["serve", "--port", "0", "--catalog", screenTime, "--catalog", tiers], in: folder)
        #expect(same.status == 64)
        #expect(same.standardError.contains("the same app, com.screentimerewards"))
        let override = try await CommandRunner.entitle.run(
            ["serve", "--port", "0", "--catalog", screenTime, "--catalog", Fixtures.examples.appendingPathComponent("Epilogue").path, "--bundle-id", "x"],
            in: folder)
        #expect(override.status == 64)
    }

    @Test("webhook endpoints on the command line: a secret for each URL, an http(s) URL, a secret of 16 characters or more, a prefix naming a served app, a lease of 2 to 300 s", arguments: [
        (["--webhook-url", "http://127.0.0.1:9/hooks"], "needs a --webhook-secret"),
        (["--webhook-url", "ftp://127.0.0.1/hooks", "--webhook-secret", "whsec_0123456789abcdef"], "http:// or https://"),
        (["--webhook-url", "http://127.0.0.1:9/hooks", "--webhook-secret", "short"], "16 to 200"),
        (["--webhook-url", "com.unknown.app=http://127.0.0.1:9/hooks", "--webhook-secret", "whsec_0123456789abcdef"], "not an app this server serves"),
        (["--webhook-lease", "1"], "--webhook-lease 1 is not a number of seconds from 2 to 300"),
        (["--webhook-lease", "301"], "--webhook-lease 301 is not a number of seconds from 2 to 300"),
    ])
    func webhookUsage(_ arguments: [String], _ message: String) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-usage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await CommandRunner.entitle.run(
            ["serve", "--port", "0", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path] + arguments, in: folder)
        #expect(result.status == 64)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }
}
