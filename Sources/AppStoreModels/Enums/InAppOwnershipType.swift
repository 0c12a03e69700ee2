import Foundation

/// Whether the customer bought the product or has access to it through Family Sharing.
///
/// [InAppOwnershipType](https://developer.apple.com/documentation/appstoreserverapi/inappownershiptype)
public struct InAppOwnershipType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let purchased = InAppOwnershipType(rawValue: "PURCHASED")
    public static let familyShared = InAppOwnershipType(rawValue: "FAMILY_SHARED")

    public static let documented: [(value: InAppOwnershipType, name: String)] = [
        (.purchased, "PURCHASED"),
        (.familyShared, "FAMILY_SHARED"),
    ]
}
