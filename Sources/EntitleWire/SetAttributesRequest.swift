import Foundation

/// `PATCH /v1/subscribers/{appUserID}/attributes`: the attributes to set; `null` clears one, an absent
/// key leaves it. `timeZone` (IANA) moves calendar quota resets to the subscriber's midnight.
public struct SetAttributesRequest: Codable, Hashable, Sendable {
    public var values: [String: String?]

    public init(_ values: [String: String?]) {
        self.values = values
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        values = try container.decode([String: String?].self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(values)
    }
}
