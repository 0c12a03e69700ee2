import Foundation

/// An import of a file of customers, as far as it got (`POST /v1/imports/jobs`, `GET /v1/imports/jobs/{id}`).
public struct ImportJobResponse: Codable, Hashable, Sendable {
    public var id: String
    /// `running`, `completed` or `cancelled`.
    public var state: String
    public var format: String
    public var webhooks: Bool
    /// The customers the file names (rows to import; a customer listed on several rows once).
    public var customers: Int
    /// Those imported so far, whatever the outcome.
    public var done: Int
    /// Customers by outcome: `imported`, `not_found`, `owned_by_another`, `invalid`.
    public var outcomes: [String: Int]
    /// Transactions Apple's histories gave.
    public var transactions: Int
    /// Rows of other stores left out, by store (a RevenueCat export).
    public var skipped: [String: Int]
    /// Rows that could not be imported, by line: the first ``largestProblemList``.
    public var problems: [ImportProblem]
    /// How many rows could not be imported in all.
    public var problemCount: Int
    /// Why the job waits, when it does (Apple unreachable, or refusing the key): it tries again.
    public var waiting: String?
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    /// The most problems a job lists (their count goes on).
    public static let largestProblemList = 1_000

    public init(
        id: String, state: String, format: String, webhooks: Bool, customers: Int, done: Int, outcomes: [String: Int], transactions: Int,
        skipped: [String: Int], problems: [ImportProblem], problemCount: Int, waiting: String? = nil, createdAt: Date, updatedAt: Date,
        finishedAt: Date? = nil
    ) {
        self.id = id
        self.state = state
        self.format = format
        self.webhooks = webhooks
        self.customers = customers
        self.done = done
        self.outcomes = outcomes
        self.transactions = transactions
        self.skipped = skipped
        self.problems = problems
        self.problemCount = problemCount
        self.waiting = waiting
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
    }
}

/// A row of an import's file that could not be imported.
public struct ImportProblem: Codable, Hashable, Sendable {
    /// The row's line in the file (its first, for a record over several lines).
    public var line: Int
    public var message: String

    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }
}
