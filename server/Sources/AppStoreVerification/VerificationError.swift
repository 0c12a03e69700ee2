import Foundation

/// Why Entitle refused a piece of signed data. Equality is by code.
///
/// Every code is stable: callers branch on it, logs and APIs carry it. `isRetryable` says whether
/// the same input may succeed later (only a failed online revocation check is).
public struct VerificationError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible, CaseIterable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not a compact JWS, bad base64url, bad JSON, or a payload that doesn't decode as its kind.
        public static let malformed = Code(rawValue: "verification.malformed")
        /// A date, amount or count of the payload lies outside `AppStoreValueRanges` (a year past 2200,
        /// a negative price): refused before any work is done with it, the chain's check included.
        public static let valueOutOfRange = Code(rawValue: "verification.valueOutOfRange")
        /// The input exceeds the configured size limit; refused before decoding.
        public static let payloadTooLarge = Code(rawValue: "verification.payloadTooLarge")
        /// The header's `alg` is not ES256.
        public static let unsupportedAlgorithm = Code(rawValue: "verification.unsupportedAlgorithm")
        /// `x5c` doesn't hold the number of certificates the environment requires (3; 1 for Xcode).
        public static let chainLength = Code(rawValue: "verification.chainLength")
        /// The chain doesn't lead to a configured trusted root.
        public static let untrustedRoot = Code(rawValue: "verification.untrustedRoot")
        /// The chain is not a valid certificate path (signatures, CA flags, names, critical extensions).
        public static let invalidChain = Code(rawValue: "verification.invalidChain")
        /// The intermediate lacks OID 1.2.840.113635.100.6.2.1 or the leaf OID 1.2.840.113635.100.6.11.1.
        public static let missingAppleExtension = Code(rawValue: "verification.missingAppleExtension")
        /// A certificate was not valid at the verification instant (the payload's signedDate, or now).
        public static let certificateExpired = Code(rawValue: "verification.certificateExpired")
        /// A certificate of the chain has been revoked (online checks).
        public static let certificateRevoked = Code(rawValue: "verification.certificateRevoked")
        /// The revocation status could not be obtained (online checks): retry later.
        public static let revocationCheckUnavailable = Code(rawValue: "verification.revocationCheckUnavailable")
        /// The signature doesn't verify with the leaf certificate's key over `header.payload`.
        public static let invalidSignature = Code(rawValue: "verification.invalidSignature")
        /// The payload's bundle identifier is not the configured one.
        public static let bundleID = Code(rawValue: "verification.bundleID")
        /// The payload's environment is not the configured one.
        public static let environment = Code(rawValue: "verification.environment")
        /// A production payload's app Apple ID is not the configured one.
        public static let appAppleID = Code(rawValue: "verification.appAppleID")

        public static let allCases: [Code] = [
            .malformed, .valueOutOfRange, .payloadTooLarge, .unsupportedAlgorithm, .chainLength, .untrustedRoot, .invalidChain,
            .missingAppleExtension, .certificateExpired, .certificateRevoked, .revocationCheckUnavailable,
            .invalidSignature, .bundleID, .environment, .appAppleID,
        ]

        /// Whether the same input may verify later.
        public var isRetryable: Bool { self == .revocationCheckUnavailable }
    }

    public var code: Code
    public var message: String
    /// The error that caused this one, if any (never signed data itself).
    public var underlying: (any Error)?

    public init(_ code: Code, _ message: String, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var isRetryable: Bool { code.isRetryable }

    /// `code: message`
    public var description: String { "\(code): \(message)" }

    public static func == (lhs: VerificationError, rhs: VerificationError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
