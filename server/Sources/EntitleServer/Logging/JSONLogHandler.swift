import Foundation
import Logging
import NIOConcurrencyHelpers

/// Log lines as JSON, one object a line, for a log pipeline (`entitle serve --log-format json`):
/// `{"time":"…","level":"info","label":"entitle","message":"…","request.id":"…",…}` — the time in ISO 8601
/// UTC to the millisecond, then the metadata's keys (the handler's, the provider's, the line's; a nested
/// value as a JSON object or array), the source module as `source`.
public struct JSONLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    let label: String
    let write: @Sendable (String) -> Void

    /// A handler writing to standard error.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.init(label: label, metadataProvider: metadataProvider) { line in Self.standardError.withLockedValue { $0.write(Data(line.utf8)) } }
    }

    /// A handler handing each line (with its newline) to `write`.
    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { $1 } }
        if let own = event.metadata { merged.merge(own) { $1 } }
        write(Self.line(time: Date(), level: event.level, label: label, message: event.message.description, metadata: merged, source: event.source))
    }

    /// The keys a line writes itself: metadata of those names is left out.
    static let ownKeys: Set<String> = ["time", "level", "label", "message", "source"]

    /// One line: the object and a newline.
    static func line(time: Date, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata, source: String) -> String {
        var text = "{\"time\":" + quoted(timestamp(time)) + ",\"level\":" + quoted(level.rawValue) + ",\"label\":" + quoted(label)
            + ",\"message\":" + quoted(message)
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) where !ownKeys.contains(key) {
            text += "," + quoted(key) + ":" + encode(value)
        }
        return text + ",\"source\":" + quoted(source) + "}\n"
    }

    /// A metadata value as JSON: a string, or a nested object or array.
    private static func encode(_ value: Logger.Metadata.Value) -> String {
        switch value {
        case .string(let string): quoted(string)
        case .stringConvertible(let convertible): quoted(convertible.description)
        case .dictionary(let dictionary): "{" + dictionary.sorted { $0.key < $1.key }.map { quoted($0.key) + ":" + encode($0.value) }.joined(separator: ",") + "}"
        case .array(let array): "[" + array.map(encode).joined(separator: ",") + "]"
        }
    }

    /// `text` as a JSON string: quotes, backslashes and control characters escaped.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                out += String(format: "\\u%04x", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    private static func timestamp(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC") ?? .current))
    }

    private static let standardError = NIOLockedValueBox(FileHandle.standardError)
}
