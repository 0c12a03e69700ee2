import Foundation

/// Why a storage operation failed. Equality is by code.
public struct StorageError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The database can't be opened or reached.
        public static let unavailable = Code(rawValue: "storage.unavailable")
        /// A statement failed.
        public static let queryFailed = Code(rawValue: "storage.queryFailed")
        /// Stored data doesn't decode (written by a newer version, or damaged).
        public static let corruptRecord = Code(rawValue: "storage.corruptRecord")
        /// The database's schema is newer than this version of Entitle knows.
        public static let schemaTooNew = Code(rawValue: "storage.schemaTooNew")
        /// Another writer did the same work first (a concurrent step of another instance); nothing was stored.
        public static let conflict = Code(rawValue: "storage.conflict")
        /// An event's ID is another stored event's, under another idempotency key (IDs are unique in
        /// the whole database, across apps); nothing was stored. Not a duplicate: a duplicate has the
        /// same idempotency key, and is ``AppendOutcome/duplicate``.
        public static let eventIDTaken = Code(rawValue: "storage.eventIDTaken")
        /// A database URL that isn't `sqlite:PATH` or `postgres://…`.
        public static let invalidURL = Code(rawValue: "storage.invalidURL")

        /// Whether retrying the same operation may succeed.
        public var isRetryable: Bool { self == .unavailable || self == .queryFailed }
    }

    public var code: Code
    public var message: String
    public var underlying: (any Error)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var isRetryable: Bool { code.isRetryable }
    public var description: String { "\(code): \(message)" }

    /// ``Code/eventIDTaken``, of the event `id` when known.
    static func eventIDTaken(_ id: UUID?, underlying: (any Error)? = nil) -> StorageError {
        let event = id.map { "the event ID \($0.uuidString.lowercased())" } ?? "an event's ID"
        return StorageError(.eventIDTaken, "\(event) is another stored event's, under another idempotency key; nothing was stored", underlying: underlying)
    }

    public static func == (lhs: StorageError, rhs: StorageError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
