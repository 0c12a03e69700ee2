import Foundation

/// One problem found in a catalog: which file, where in it, what is wrong and what would be valid.
///
/// Equality is by code, file and path, so tests compare what went wrong and where, not the wording.
public struct CatalogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A stable identifier of the kind of problem.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The file doesn't exist or can't be read.
        public static let unreadableFile = Code(rawValue: "catalog.unreadableFile")
        /// The file is not JSON.
        public static let malformedJSON = Code(rawValue: "catalog.malformedJSON")
        /// A value has the wrong JSON type.
        public static let invalidType = Code(rawValue: "catalog.invalidType")
        /// A required key is absent.
        public static let missingKey = Code(rawValue: "catalog.missingKey")
        /// A value has the right type but is not allowed (a negative limit, an unknown window).
        public static let invalidValue = Code(rawValue: "catalog.invalidValue")
        /// A period or length is not a valid ISO 8601 duration, or not one the App Store offers.
        public static let invalidDuration = Code(rawValue: "catalog.invalidDuration")
        /// A display price is not a decimal number.
        public static let invalidPrice = Code(rawValue: "catalog.invalidPrice")
        /// The entitlements file names a product the `.storekit` file doesn't define.
        public static let unknownProduct = Code(rawValue: "catalog.unknownProduct")
        /// A product identifier appears twice where it must be unique.
        public static let duplicateProduct = Code(rawValue: "catalog.duplicateProduct")
        /// A product is mapped in a way that can't work: a consumable granting an entitlement, a
        /// non-renewing subscription without a duration, or a subscription group whose level order
        /// contradicts what its products grant.
        public static let inconsistentMapping = Code(rawValue: "catalog.inconsistentMapping")
        /// A feature, limit or quota that the entitlements file doesn't declare.
        public static let unknownFeature = Code(rawValue: "catalog.unknownFeature")
        /// An entitlement the entitlements file doesn't define.
        public static let unknownEntitlement = Code(rawValue: "catalog.unknownEntitlement")
        /// The folder holds no `.storekit` file, or several and the entitlements file names none.
        public static let storeKitFileNotFound = Code(rawValue: "catalog.storeKitFileNotFound")
        /// The entitlements file's format version is not one this version of Entitle reads.
        public static let unsupportedVersion = Code(rawValue: "catalog.unsupportedVersion")
    }

    public var code: Code
    /// The file's path as given to the loader.
    public var file: String
    /// Where in the document, as a JSON path (`subscriptionGroups[0].subscriptions[1].displayPrice`);
    /// empty for the whole file.
    public var path: String
    public var message: String
    /// What would be valid there.
    public var hint: String?

    public init(_ code: Code, file: String, path: String, message: String, hint: String? = nil) {
        self.code = code
        self.file = file
        self.path = path
        self.message = message
        self.hint = hint
    }

    /// `file: path: code: message (hint)` on one line.
    public var description: String {
        var text = file
        if !path.isEmpty { text += ": \(path)" }
        text += ": \(code): \(message)"
        if let hint { text += " (\(hint))" }
        return text
    }

    public static func == (lhs: CatalogError, rhs: CatalogError) -> Bool {
        lhs.code == rhs.code && lhs.file == rhs.file && lhs.path == rhs.path
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(file)
        hasher.combine(path)
    }
}
