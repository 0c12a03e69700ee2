import NIOConcurrencyHelpers

/// What a change found and left, noted by the route that made it for ``AuditMiddleware`` to record
/// (an account's role, say); routes about one subscriber have theirs taken by the middleware itself.
final class AuditChange: Sendable {
    private let noted = NIOLockedValueBox<(before: String?, after: String?)?>(nil)

    /// Set by ``AuditMiddleware`` around the route.
    @TaskLocal static var current: AuditChange?

    /// Records the change's before and after, for the audit entry of the request being served.
    static func note(before: String?, after: String?) {
        current?.noted.withLockedValue { $0 = (before, after) }
    }

    var value: (before: String?, after: String?)? { noted.withLockedValue { $0 } }
}
