/// Why an app receipt's transaction IDs could not be read. Equality is by code; every code is stable.
public struct AppReceiptError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not base64, or larger than ``AppReceiptReader/largestReceipt``.
        public static let notBase64 = Code(rawValue: "receipt.notBase64")
        /// Not a PKCS #7 container holding a receipt's attributes.
        public static let malformed = Code(rawValue: "receipt.malformed")
        /// The receipt is another app's (its bundle ID attribute).
        public static let otherApp = Code(rawValue: "receipt.otherApp")
        /// The receipt lists no in-app purchase.
        public static let noPurchases = Code(rawValue: "receipt.noPurchases")
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code): \(message)" }
    public static func == (a: AppReceiptError, b: AppReceiptError) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
