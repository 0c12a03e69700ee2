import Foundation

/// The mass extension's request identifier, to ask for its status with.
public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
}
