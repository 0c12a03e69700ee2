import Logging
import Synchronization

/// A log handler that keeps what it is given, for tests that assert what was (or wasn't) logged.
public struct RecordingLogHandler: LogHandler {
    /// One logged message.
    public struct Entry: Sendable {
        public let level: Logger.Level
        public let message: String
        public let metadata: Logger.Metadata
    }

    /// Where the entries go; shared by every copy of the handler.
    public final class Records: Sendable {
        private let entries = Mutex<[Entry]>([])

        public init() {}

        public var all: [Entry] { entries.withLock { $0 } }

        func append(_ entry: Entry) { entries.withLock { $0.append(entry) } }
    }

    public let records: Records
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level

    public init(records: Records, logLevel: Logger.Level = .info) {
        self.records = records
        self.logLevel = logLevel
    }

    /// A logger writing to `records`.
    public static func logger(_ label: String, records: Records, logLevel: Logger.Level = .info) -> Logger {
        Logger(label: label) { _ in RecordingLogHandler(records: records, logLevel: logLevel) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        records.append(Entry(level: event.level, message: "\(event.message)", metadata: metadata.merging(event.metadata ?? [:]) { $1 }))
    }
}
