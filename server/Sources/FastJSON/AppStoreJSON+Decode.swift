import AppStoreModels
import Foundation

extension AppStoreJSON {
    /// Decodes one of Apple's payloads: notifications, transactions and renewal info through
    /// ``AppStorePayloadReader`` where it reads them, everything else with ``decoder()``. Either way the
    /// same value, or the decoder's error.
    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        if let read = bytes.withUnsafeBufferPointer({ AppStorePayloadReader.read(type, from: $0) }) { return read }
        return try decoder().decode(type, from: Data(bytes))
    }
}
