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

    func validate() throws {
        let environment = ProcessInfo.processInfo.environment
        guard Format(rawValue: format ?? environment["ENTITLE_LOG_FORMAT"] ?? "text") != nil else {
            throw ValidationError("--log-format (or ENTITLE_LOG_FORMAT) is text or json")
        }
        guard Logger.Level(rawValue: level ?? environment["ENTITLE_LOG_LEVEL"] ?? "info") != nil else {
            throw ValidationError("--log-level (or ENTITLE_LOG_LEVEL) is one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
    }

    /// Sets up the process's logging (once; a later call keeps the first set-up) and returns a logger
    /// labelled `label` at the level asked for (`fallback` when none is).
    func logger(label: String, fallback: Logger.Level = .info) -> Logger {
        let environment = ProcessInfo.processInfo.environment
        let format = Format(rawValue: format ?? environment["ENTITLE_LOG_FORMAT"] ?? "text") ?? .text
        let level = Logger.Level(rawValue: level ?? environment["ENTITLE_LOG_LEVEL"] ?? "") ?? fallback
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
