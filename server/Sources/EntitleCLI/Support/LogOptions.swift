import ArgumentParser
import EntitleServer
import Foundation
import Logging
import NIOConcurrencyHelpers

/// How a server logs (docs/operations.md): `--log-format text|json` and `--log-level`, or
/// `ENTITLE_LOG_FORMAT` and `ENTITLE_LOG_LEVEL`; text at `info` by default. Every line a request causes
/// carries its `request.id` (``RequestLog``).
struct LogOptions: ParsableArguments {
    @Option(name: .customLong("log-format"), help: "text (the default) or json: one JSON object a line.")
    var format: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info (the default), notice, warning, error or critical.")
    var level: String?

    enum Format: String, CaseIterable {
        case text
        case json
    }

    /// The format asked for, by option or environment (`text` when neither).
    private var formatName: String { format ?? ProcessInfo.processInfo.environment["ENTITLE_LOG_FORMAT"] ?? "text" }
    /// The level asked for, by option or environment, if any.
    private var levelName: String? { level ?? ProcessInfo.processInfo.environment["ENTITLE_LOG_LEVEL"] }

    func validate() throws {
        guard Format(rawValue: formatName) != nil else { throw ValidationError("--log-format (or ENTITLE_LOG_FORMAT) is text or json") }
        guard levelName.map({ Logger.Level(rawValue: $0) != nil }) ?? true else {
            throw ValidationError("--log-level (or ENTITLE_LOG_LEVEL) is one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// Sets up the process's logging (once; a later call keeps the first set-up) and returns a logger
    /// labelled `label` at the level asked for (`fallback` when none is).
    func logger(label: String, fallback: Logger.Level = .info) -> Logger {
        let format = Format(rawValue: formatName) ?? .text
        let level = levelName.flatMap(Logger.Level.init(rawValue:)) ?? fallback
        Self.bootstrapped.withLockedValue { done in
            guard !done else { return }
            done = true
            LoggingSystem.bootstrap({ label, provider in
                var handler: any LogHandler = switch format {
                case .text: StreamLogHandler.standardError(label: label, metadataProvider: provider)
                case .json: JSONLogHandler(label: label, metadataProvider: provider)
                }
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestLog.metadataProvider)
        }
        var logger = Logger(label: label)
        logger.logLevel = level
        return logger
    }

    private static let bootstrapped = NIOLockedValueBox(false)
}
