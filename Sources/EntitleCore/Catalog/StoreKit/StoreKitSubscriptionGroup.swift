import Foundation

/// A subscription group of a `.storekit` file: the auto-renewable subscriptions a customer can hold one
/// of at a time, ranked by `groupNumber` (1 is the highest level of service).
public struct StoreKitSubscriptionGroup: Decodable, Sendable, Hashable {
    public var id: String
    public var name: String?
    public var localizations: [StoreKitLocalization]
    public var subscriptions: [StoreKitSubscription]

    enum CodingKeys: String, CodingKey {
        case id, name, localizations, subscriptions
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(String.self, forKey: .id)
        name = try container.decodeIfPresent(String.self, forKey: .name)
        localizations = try container.decodeIfPresent([StoreKitLocalization].self, forKey: .localizations) ?? []
        subscriptions = try container.decodeIfPresent([StoreKitSubscription].self, forKey: .subscriptions) ?? []
    }
}
