import Foundation

/// An entitlement: a named level of access that one or more products grant.
public struct Entitlement: Hashable, Sendable, Identifiable {
    public var id: String
    public var displayName: String?
    public var productIDs: [ProductID]
    public var access: AccessLevel

    public init(id: String, displayName: String? = nil, productIDs: [ProductID], access: AccessLevel) {
        self.id = id
        self.displayName = displayName
        self.productIDs = productIDs
        self.access = access
    }
}
