import Foundation

/// Every problem ``CatalogLoader`` found, in file and document order. Thrown instead of stopping at
/// the first, so one run of `entitle check` shows everything to fix.
public struct CatalogValidationError: Error, Sendable, CustomStringConvertible {
    public var errors: [CatalogError]

    public init(errors: [CatalogError]) {
        self.errors = errors
    }

    public var codes: [CatalogError.Code] { errors.map(\.code) }

    public var description: String { errors.map(\.description).joined(separator: "\n") }
}
