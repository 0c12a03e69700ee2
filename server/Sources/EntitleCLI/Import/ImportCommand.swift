import AppStoreServerAPI
import ArgumentParser
import EntitleAPI
import EntitleWire
import Foundation

/// `entitle import FILE`: an app moving in imports its existing customers. The file goes to the running
/// server as an import job (`POST /v1/imports/jobs`), which the server carries on in the background, paced at
/// Apple's limits, through restarts; the command follows it (`GET /v1/imports/jobs/{id}`) and reports. Run
/// again with the same file, it joins the running job; once done, it records nothing twice.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an app's existing customers from Apple (a CSV of app user and transaction IDs or receipts, or a RevenueCat transactions export).",
        discussion: """
            FILE is a CSV with a header: app_user_id and transaction_id (or original_transaction_id; or receipt, an app receipt \
            in base64, for rows without one), or with --format revenuecat RevenueCat's transactions export (App Store rows \
            imported, other stores' counted as skipped). The running server (--server, or ENTITLE_URL; http://127.0.0.1:8080 \
            by default; it needs --app-store-key) imports it as a job: each customer's history fetched from Apple, verified \
            and recorded under their app user ID, without webhooks unless --webhooks. The job goes on on the server whatever \
            happens to this command, and survives server restarts; the command follows it and reports rows that can't be \
            imported by line. Run again with the same file, it joins the running job (--restart starts another); --detach \
            prints the job's ID and returns.
            """)

    @Argument(help: "The file of customers.", completion: .file()) var file: String
    @Option(help: "csv or revenuecat.") var format: String = "csv"
    @Option(help: "The server's URL.") var server: String?
    @Option(name: .customLong("secret-key"), help: "A secret API key.") var secretKey: String?
    @Option(help: "The app (bundle ID), on a server of several apps.") var app: String?
    @Flag(help: "Send webhooks for the imported history, as if it had just happened.") var webhooks = false
    @Flag(help: "Start a new job even if one for this file is running.") var restart = false
    @Flag(help: "Print the job's ID and return without following it.") var detach = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard ["csv", "revenuecat"].contains(format) else { throw ValidationError("--format is csv or revenuecat") }
        let serverText = server ?? environment["ENTITLE_URL"] ?? "http://127.0.0.1:8080"
        guard let base = URL(string: serverText), base.scheme == "http" || base.scheme == "https" else {
            throw ValidationError("--server: \(serverText) is not an http(s) URL")
        }
        guard let key = secretKey ?? environment["ENTITLE_SECRET_KEY"], !key.isEmpty else {
            throw ValidationError("give a secret key: --secret-key or ENTITLE_SECRET_KEY")
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("\(file) can't be read") }
        var headers = ["Authorization": "Bearer \(key)", "Content-Type": "application/json"]
        if let app { headers["Entitle-App"] = app }
        let request = ImportJobRequest(format: format, file: String(decoding: data, as: UTF8.self), webhooks: webhooks, restart: restart)
        var job = try await Self.send(
            APIRequest(method: "POST", path: "/v1/imports/jobs", headers: headers, body: try WireJSON.encoder.encode(request)), to: base, expecting: [200, 202])
        if job.done > 0 || job.state != "running" {
            print("joining import \(job.id): \(job.done) of \(job.customers) customers done")
        } else {
            print("import \(job.id): \(job.customers) customers")
        }
        if detach { return }
        let started = ContinuousClock.now
        let firstDone = job.done
        var reported = job.done
        var waiting: String?
        while job.state == "running" {
            try await Task.sleep(for: .milliseconds(500))
            job = try await Self.send(APIRequest(method: "GET", path: "/v1/imports/jobs/\(job.id)", headers: headers, body: nil), to: base, expecting: [200])
            if job.done != reported {
                reported = job.done
                let seconds = max(0.001, Double((ContinuousClock.now - started).components.seconds) + Double((ContinuousClock.now - started).components.attoseconds) / 1e18)
                print(String(format: "%d of %d customers (%.1f/s)", job.done, job.customers, Double(job.done - firstDone) / seconds))
            }
            if job.waiting != waiting {
                waiting = job.waiting
                if let waiting { FileHandle.standardError.write(Data("waiting: \(waiting); the server tries again\n".utf8)) }
            }
        }
        for problem in job.problems {
            FileHandle.standardError.write(Data("line \(problem.line): \(problem.message)\n".utf8))
        }
        if job.problemCount > job.problems.count {
            FileHandle.standardError.write(Data("… and \(job.problemCount - job.problems.count) more\n".utf8))
        }
        let outcomes = job.outcomes
        print("""
            imported \(outcomes["imported", default: 0]) customers (\(job.transactions) transactions from Apple); \
            not found at Apple \(outcomes["not_found", default: 0]); owned by another subscriber \(outcomes["owned_by_another", default: 0]); \
            invalid \(outcomes["invalid", default: 0] + job.problemCount - (job.outcomes.filter { $0.key != "imported" }.values.reduce(0, +)))\
            \(job.skipped.isEmpty ? "" : "; skipped (other stores) " + job.skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            """)
    }

    /// The job the server answers `request` with, or a failure saying why.
    static func send(_ request: APIRequest, to base: URL, expecting statuses: Set<Int>) async throws -> ImportJobResponse {
        let response: APIResponse
        do {
            response = try await AsyncHTTPClientTransport().send(request, to: base, timeout: .seconds(600))
        } catch {
            throw CommandFailure("\(base.absoluteString) can't be reached: \(error.message); the import goes on on the server: run the same command again to follow it")
        }
        guard statuses.contains(response.status), let job = try? WireJSON.decoder.decode(ImportJobResponse.self, from: response.body) else {
            let message = (try? WireJSON.decoder.decode(ErrorResponse.self, from: response.body)).map { "\($0.error.code): \($0.error.message)" }
                ?? "HTTP \(response.status)"
            throw CommandFailure("the server refused the import (\(message))")
        }
        return job
    }
}
