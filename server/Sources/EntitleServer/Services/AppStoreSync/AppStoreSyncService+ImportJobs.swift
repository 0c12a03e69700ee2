import Crypto
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

/// Imports as jobs (docs/import.md): a file of customers sent once (`POST /v1/imports/jobs`), carried on by
/// whichever instance holds the job's lease, a batch at a time, its progress stored after each batch, so
/// a restart (or another instance, once the lease lapses) resumes where it stopped; the caller polls.
extension AppStoreSyncService {
    /// Customers a batch of a job imports between two progress writes.
    public static let importBatchSize = 10
    /// How long a job's lease lasts without a batch renewing it: after a crash, another instance (or the
    /// restarted one) carries the job on this long after its last batch.
    public static let importLease: TimeInterval = 30
    /// The largest file a job takes, in bytes.
    public static let largestImportFile = 64 << 20

    /// Starts importing `request.file`, or joins the running import of the same file (unless `restart`).
    /// The file is read at once: a file without the columns it needs is refused whole, its bad rows are
    /// the job's first problems. `created` is false when the request joined a running job.
    public func startImport(_ request: ImportJobRequest) async throws(ServiceError) -> (job: ImportJobResponse, created: Bool) {
        _ = try requireServerAPI()
        guard let format = CustomerFile.Format(rawValue: request.format) else { throw ServiceError(.invalidRequest, "format is csv or revenuecat") }
        guard request.file.utf8.count <= Self.largestImportFile else {
            throw ServiceError(.invalidRequest, "the file is over \(Self.largestImportFile >> 20) MB: split it")
        }
        let digest = SHA256.hash(data: Data(request.file.utf8)).map { String(format: "%02x", $0) }.joined()
        if request.restart != true, let running = try await runningImports().first(where: { $0.digest == digest }) {
            return (try Self.response(running), false)
        }
        let parsed = try CustomerFile(text: request.file, format: format)
        let at = now()
        let progress = ImportJobProgress(
            format: format.rawValue, webhooks: request.webhooks ?? false, customers: parsed.rows.count, skipped: parsed.skipped,
            problems: parsed.problems.map { ImportProblem(line: $0.line, message: $0.message) })
        let input = ImportJobInput(rows: parsed.rows.map { ImportJobInput.Row(line: $0.line, customer: $0.customer) })
        let job = StoredImportJob(
            id: "imp_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: ""), state: parsed.rows.isEmpty ? .completed : .running,
            digest: digest, input: try Self.json(input), progress: try Self.json(progress), createdAt: at, updatedAt: at,
            finishedAt: parsed.rows.isEmpty ? at : nil)
        do {
            try await importJobs.insertImportJob(job)
        } catch {
            throw ServiceError(error)
        }
        logger.info("import started", metadata: ["import.id": "\(job.id)", "import.customers": "\(parsed.rows.count)", "import.format": "\(format.rawValue)"])
        return (try Self.response(job), true)
    }

    /// The import `id`, as far as it got.
    public func importJob(id: String) async throws(ServiceError) -> ImportJobResponse {
        let job: StoredImportJob?
        do {
            job = try await importJobs.importJob(id: id)
        } catch {
            throw ServiceError(error)
        }
        guard let job else { throw ServiceError(.notFound, "no import \(id)") }
        return try Self.response(job)
    }

    /// Carries the app's running imports on, oldest first, each while this instance holds its lease, up
    /// to `maximumBatches` batches; returns how many customers it imported. Stops between batches when
    /// the task is cancelled (shutdown). Apple unreachable, or refusing the key, is recorded on the job
    /// (`waiting`) and thrown: the job is tried again on the next pass.
    @discardableResult
    public func runImportJobs(holder: String, maximumBatches: Int = .max) async throws(ServiceError) -> Int {
        guard serverAPI != nil else { return 0 }
        var imported = 0
        var batches = 0
        for listed in try await runningImports() where batches < maximumBatches && !Task.isCancelled {
            let lease = LeasedJob(rawValue: "import:\(listed.id)")
            guard var held = try await holdImportLease(lease, holder: holder) else { continue }
            let job: StoredImportJob?
            do {
                job = try await importJobs.importJob(id: listed.id)
            } catch {
                throw ServiceError(error)
            }
            guard let job, job.state == .running else { continue }
            let input: ImportJobInput = try Self.decode(job.input)
            var progress: ImportJobProgress = try Self.decode(job.progress)
            while progress.done < input.rows.count, batches < maximumBatches, !Task.isCancelled {
                let rows = input.rows[progress.done..<min(progress.done + Self.importBatchSize, input.rows.count)]
                let results: [ImportResult]
                do {
                    results = try await importCustomers(rows.map(\.customer), webhooks: progress.webhooks)
                } catch {
                    // Shutdown cut the batch short: what it recorded is recorded once; the next holder redoes it.
                    if Task.isCancelled { break }
                    progress.waiting = "\(error.code.rawValue): \(error.message)"
                    _ = try? await importJobs.updateImportJob(id: job.id, state: .running, progress: Self.json(progress), at: now())
                    throw error
                }
                progress.record(results, lines: rows.map(\.line))
                let finished = progress.done >= input.rows.count
                let written: Bool
                let text = try Self.json(progress)
                do {
                    written = try await importJobs.updateImportJob(id: job.id, state: finished ? .completed : .running, progress: text, at: now())
                } catch {
                    throw ServiceError(error)
                }
                imported += rows.count
                batches += 1
                guard written else { break }
                if finished {
                    logger.info("import completed", metadata: ["import.id": "\(job.id)", "import.imported": "\(progress.outcomes["imported", default: 0])"])
                } else if let renewed = try await holdImportLease(lease, holder: holder) {
                    held = renewed
                } else {
                    break
                }
            }
            // Done, or stopped between batches by shutdown: the next holder need not wait for the lease to lapse
            // (a crash leaves it to lapse).
            if progress.done >= input.rows.count || Task.isCancelled { try? await leases.completeJob(held, mark: nil) }
        }
        return imported
    }

    private func runningImports() async throws(ServiceError) -> [StoredImportJob] {
        do {
            return try await importJobs.runningImportJobs()
        } catch {
            throw ServiceError(error)
        }
    }

    /// Takes or renews the job's lease for `holder`: `nil` when another instance holds it.
    private func holdImportLease(_ job: LeasedJob, holder: String) async throws(ServiceError) -> JobLease? {
        let at = now()
        do {
            return try await leases.acquireJob(job, holder: holder, now: at, until: at.addingTimeInterval(Self.importLease))
        } catch {
            throw ServiceError(error)
        }
    }

    static func response(_ job: StoredImportJob) throws(ServiceError) -> ImportJobResponse {
        let progress: ImportJobProgress = try decode(job.progress)
        return ImportJobResponse(
            id: job.id, state: job.state.rawValue, format: progress.format, webhooks: progress.webhooks, customers: progress.customers,
            done: progress.done, outcomes: progress.outcomes, transactions: progress.transactions, skipped: progress.skipped,
            problems: progress.problems.sorted { $0.line < $1.line }, problemCount: progress.problemCount, waiting: progress.waiting,
            createdAt: job.createdAt, updatedAt: job.updatedAt, finishedAt: job.finishedAt)
    }

    static func json<T: Encodable>(_ value: T) throws(ServiceError) -> String {
        do {
            return String(decoding: try WireJSON.encoder.encode(value), as: UTF8.self)
        } catch {
            throw ServiceError(.internalError, "an import job does not encode", underlying: error)
        }
    }

    static func decode<T: Decodable>(_ text: String) throws(ServiceError) -> T {
        do {
            return try WireJSON.decoder.decode(T.self, from: Data(text.utf8))
        } catch {
            throw ServiceError(.internalError, "an import job's stored record does not decode", underlying: error)
        }
    }
}

/// The customers an import job imports, in the file's order, each with its line.
struct ImportJobInput: Codable, Sendable {
    struct Row: Codable, Sendable {
        var line: Int
        var customer: ImportCustomer
    }

    var rows: [Row]
}

/// How far an import job got.
struct ImportJobProgress: Codable, Sendable {
    var format: String
    var webhooks: Bool
    var customers: Int
    var done = 0
    var outcomes: [String: Int] = [:]
    var transactions = 0
    var skipped: [String: Int]
    var problems: [ImportProblem]
    var problemCount: Int
    var waiting: String?

    init(format: String, webhooks: Bool, customers: Int, skipped: [String: Int], problems: [ImportProblem]) {
        self.format = format
        self.webhooks = webhooks
        self.customers = customers
        self.skipped = skipped
        self.problems = Array(problems.prefix(ImportJobResponse.largestProblemList))
        self.problemCount = problems.count
    }

    /// Counts a batch's results (in the order of its rows, at `lines`).
    mutating func record(_ results: [ImportResult], lines: [Int]) {
        for (line, result) in zip(lines, results) {
            outcomes[result.outcome, default: 0] += 1
            transactions += result.transactions
            guard result.outcome != "imported" else { continue }
            problemCount += 1
            if problems.count < ImportJobResponse.largestProblemList {
                problems.append(ImportProblem(line: line, message: "\(result.outcome): \(result.message ?? "")"))
            }
        }
        done += results.count
        waiting = nil
    }
}
