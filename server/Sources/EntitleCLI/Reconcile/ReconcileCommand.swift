import AppStoreServerAPI
import ArgumentParser
import EntitleAPI
import EntitleWire
import Foundation

/// `entitle reconcile`: one reconciliation pass of a running server's app (`POST /v1/reconciliation`),
/// printed: the window of Apple's Notification History read, what it added, the subscriptions asked about.
struct ReconcileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reconcile",
        abstract: "Run one reconciliation pass with the App Store Server API and print what it found and changed.",
        discussion: """
            Asks the running server (--server, or ENTITLE_URL; http://127.0.0.1:8080 by default) with a secret key
            (--secret-key, or ENTITLE_SECRET_KEY) to read Apple's Notification History since its last pass (or
            --since), ingest every notification its ledger lacks, and ask Apple about subscriptions past their expiry
            with no news. The server needs --app-store-key. Several instances: one runs the pass, the others skip.
            """)

    @Option(help: "The server's URL.") var server: String?
    @Option(name: .customLong("secret-key"), help: "A secret API key.") var secretKey: String?
    @Option(help: "The app (bundle ID), on a server of several apps.") var app: String?
    @Option(help: "Read Notification History from this date (ISO 8601, e.g. 2026-11-01T00:00:00Z; at most 180 days back).") var since: String?

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        let serverText = server ?? environment["ENTITLE_URL"] ?? "http://127.0.0.1:8080"
        guard let base = URL(string: serverText), base.scheme == "http" || base.scheme == "https" else {
            throw ValidationError("--server: \(serverText) is not an http(s) URL")
        }
        guard let key = secretKey ?? environment["ENTITLE_SECRET_KEY"], !key.isEmpty else {
            throw ValidationError("give a secret key: --secret-key or ENTITLE_SECRET_KEY")
        }
        let sinceDate = try since.map { text in
            guard let date = WireDate.parse(text) else { throw ValidationError("--since: \(text) is not an ISO 8601 date-time (YYYY-MM-DDTHH:MM:SSZ)") }
            return date
        }
        var headers = ["Authorization": "Bearer \(key)", "Content-Type": "application/json"]
        if let app { headers["Entitle-App"] = app }
        let body = try WireJSON.encoder.encode(ReconciliationRequest(since: sinceDate))
        // The server starts the pass as a job; this waits for it, polling.
        var headersWaiting = headers
        headersWaiting["Prefer"] = "wait=20"
        var response = try await Self.send(APIRequest(method: "POST", path: "/v1/reconciliation", headers: headersWaiting, body: body), to: base)
        var job = try Self.job(response)
        while job.state == "running" {
            try await Task.sleep(for: .seconds(1))
            response = try await Self.send(APIRequest(method: "GET", path: "/v1/reconciliation/\(job.id)", headers: headers), to: base)
            job = try Self.job(response)
        }
        guard job.state == "completed", let report = job.report else {
            throw CommandFailure("the pass \(job.id) failed: \(job.error.map { "\($0.code) \($0.message)" } ?? job.state.rawValue)")
        }
        if report.skipped {
            print("\(report.app): another server instance is running a pass; nothing done")
            return
        }
        print("""
            \(report.app): Notification History \(report.from.formatted(.iso8601)) to \(report.to.formatted(.iso8601))
              notifications read                           \(report.notificationsRead)
              added (the ledger lacked them)               \(report.notificationsAdded)
              refused (did not verify)                     \(report.notificationsRefused)
              subscriptions past expiry, no news, asked    \(report.purchasesChecked)
              events added from their status               \(report.statusEventsAdded)
              of them unanswered (asked again next pass)   \(report.purchasesUnanswered)
              held purchases looked up, linked             \(report.heldPurchasesChecked), \(report.heldPurchasesLinked)
              took                                         \(String(format: "%.2f", report.seconds)) s
            """)
    }

    private static func send(_ request: APIRequest, to base: URL) async throws -> APIResponse {
        do {
            return try await AsyncHTTPClientTransport().send(request, to: base, timeout: .seconds(60))
        } catch {
            throw CommandFailure("\(base.absoluteString) can't be reached: \(error.message)")
        }
    }

    private static func job(_ response: APIResponse) throws -> ReconciliationJobResponse {
        guard (200...202).contains(response.status), let job = try? WireJSON.decoder.decode(ReconciliationJobResponse.self, from: response.body) else {
            let message = (try? JSONSerialization.jsonObject(with: response.body) as? [String: [String: String]]).flatMap { $0?["error"] }
            throw CommandFailure("the server answered \(response.status)\(message.map { ": \($0["code"] ?? "") \($0["message"] ?? "")" } ?? "")")
        }
        return job
    }
}
