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
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = WireDate.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(text.prefix(40)) is not a date-time as YYYY-MM-DDTHH:MM:SSZ")
            }
            return date
        }
        return decoder
    }
}
