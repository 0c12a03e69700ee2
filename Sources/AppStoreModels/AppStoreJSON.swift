import Foundation

/// JSON coders configured for Apple's wire format: dates as milliseconds since 1970.
public enum AppStoreJSON {
    public static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// Decodes one of Apple's payloads: notifications, transactions and renewal info through
    /// ``AppStorePayloadReader`` where it reads them, everything else with ``decoder()``. Either way the
    /// same value, or the decoder's error.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        if let read = bytes.withUnsafeBufferPointer({ AppStorePayloadReader.read(type, from: $0) }) { return read }
        return try decoder().decode(type, from: Data(bytes))
    }
}
