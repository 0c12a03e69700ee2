import ArgumentParser
import Crypto
import EntitleAPI
import EntitleWire
import Foundation

/// `entitle import FILE`: an app moving in imports its existing customers. The rows go to the running
/// server (`POST /v1/imports/customers`), a batch at a time; the server asks Apple for each customer's
/// history, paced at Apple's limits. Where it got to is kept beside the file, so an interrupted import
/// resumes; run again, it records nothing twice.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import an app's existing customers from Apple (a CSV of app user and transaction IDs, or a RevenueCat transactions export).",
        discussion: """
            FILE is a CSV with a header: app_user_id and transaction_id (or original_transaction_id; or receipt, an app receipt \
            in base64, for rows without one), or with --format revenuecat \
            RevenueCat's transactions export (App Store rows imported, other stores' counted as skipped). The running server \
            (--server, or ENTITLE_URL; http://127.0.0.1:8080 by default; it needs --app-store-key) fetches each customer's \
            history from Apple, verifies it and records it under their app user ID, without webhooks. Rows that can't be \
            imported are reported by line and never stop the run. Progress is kept in FILE.entitle-import: interrupted, the \
            same command resumes; --restart starts over (nothing is recorded twice either way).
            """)

    @Argument(help: "The file of customers.", completion: .file()) var file: String
    @Option(help: "csv or revenuecat.") var format: String = "csv"
    @Option(help: "The server's URL.") var server: String?
    @Option(name: .customLong("secret-key"), help: "A secret API key.") var secretKey: String?
    @Option(help: "The app (bundle ID), on a server of several apps.") var app: String?
    @Option(help: "Customers a request (1 to 100).") var batch: Int = 50
    @Flag(help: "Ignore the progress kept beside the file and start over.") var restart = false

    func run() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let format = CustomerFile.Format(rawValue: format) else { throw ValidationError("--format is csv or revenuecat") }
        guard (1...ImportCustomersRequest.largest).contains(batch) else { throw ValidationError("--batch is 1 to \(ImportCustomersRequest.largest)") }
        let serverText = server ?? environment["ENTITLE_URL"] ?? "http://127.0.0.1:8080"
        guard let base = URL(string: serverText), base.scheme == "http" || base.scheme == "https" else {
            throw ValidationError("--server: \(serverText) is not an http(s) URL")
        }
        guard let key = secretKey ?? environment["ENTITLE_SECRET_KEY"], !key.isEmpty else {
            throw ValidationError("give a secret key: --secret-key or ENTITLE_SECRET_KEY")
        }
        guard let data = FileManager.default.contents(atPath: file) else { throw ValidationError("\(file) can't be read") }
        let text = String(decoding: data, as: UTF8.self)
        let parsed = try CustomerFile(text: text, format: format)
        let progress = ImportProgress(file: file, digest: SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined())
        let resumeAfter = restart ? 0 : progress.lineDone()
        let pending = parsed.rows.filter { $0.line > resumeAfter }
        if resumeAfter > 0 { print("resuming after line \(resumeAfter): \(pending.count) of \(parsed.rows.count) customers left") }

        var headers = ["Authorization": "Bearer \(key)", "Content-Type": "application/json"]
        if let app { headers["Entitle-App"] = app }
        var tally: [String: Int] = [:]
        var transactions = 0
        var problems = parsed.problems
        let started = ContinuousClock.now
        var done = 0
        for start in stride(from: 0, to: pending.count, by: batch) {
            let rows = Array(pending[start..<min(start + batch, pending.count)])
            let body = try WireJSON.encoder.encode(ImportCustomersRequest(customers: rows.map(\.customer)))
            let response: APIResponse
            do {
                response = try await URLSessionTransport().send(
                    APIRequest(method: "POST", path: "/v1/imports/customers", headers: headers, body: body), to: base, timeout: .seconds(600))
            } catch {
                throw CommandFailure("\(base.absoluteString) can't be reached: \(error.message); run the same command again to resume")
            }
            guard response.status == 200, let answer = try? WireJSON.decoder.decode(ImportCustomersResponse.self, from: response.body),
                answer.results.count == rows.count
            else {
                let message = (try? WireJSON.decoder.decode(ErrorResponse.self, from: response.body)).map { "\($0.error.code): \($0.error.message)" }
                    ?? "HTTP \(response.status)"
                throw CommandFailure("the server refused a batch (\(message)); stopped before line \(rows[0].line): run the same command again to resume")
            }
            for (row, result) in zip(rows, answer.results) {
                tally[result.outcome, default: 0] += 1
                transactions += result.transactions
                if result.outcome != "imported" { problems.append((row.line, "\(result.outcome): \(result.message ?? "")")) }
            }
            done += rows.count
            progress.record(lineDone: rows[rows.count - 1].line)
            let seconds = Double((ContinuousClock.now - started).components.seconds) + Double((ContinuousClock.now - started).components.attoseconds) / 1e18
            print(String(format: "%d of %d customers (%.1f/s)", done, pending.count, Double(done) / max(seconds, 0.001)))
        }
        progress.finish()
        for (line, message) in problems.sorted(by: { $0.line < $1.line }) {
            FileHandle.standardError.write(Data("line \(line): \(message)\n".utf8))
        }
        print("""
            imported \(tally["imported", default: 0]) customers (\(transactions) transactions from Apple); \
            not found at Apple \(tally["not_found", default: 0]); owned by another subscriber \(tally["owned_by_another", default: 0]); \
            invalid \(tally["invalid", default: 0] + parsed.problems.count)\
            \(parsed.skipped.isEmpty ? "" : "; skipped (other stores) " + parsed.skipped.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
            """)
    }
}

/// Where an import of a file got to, kept beside it (`FILE.entitle-import`): the last line whose batch the
/// server answered, for that file's content (a changed file starts over).
struct ImportProgress {
    let file: String
    let digest: String
    var path: String { file + ".entitle-import" }

    func lineDone() -> Int {
        guard let data = FileManager.default.contents(atPath: path),
            let saved = try? JSONDecoder().decode([String: String].self, from: data), saved["digest"] == digest
        else { return 0 }
        return Int(saved["line"] ?? "") ?? 0
    }

    func record(lineDone line: Int) {
        try? JSONEncoder().encode(["digest": digest, "line": String(line)]).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    func finish() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
