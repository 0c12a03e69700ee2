import Foundation

/// The API's JSON coders, shared by the server and every client: ISO 8601 dates, sorted keys.
///
/// One definition, so a date the server writes is always one a client reads.
public enum WireJSON {
    /// Encodes wire types as the API sends them.
    public static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }

    /// Decodes wire types as the API sends them.
    public static var decoder: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
