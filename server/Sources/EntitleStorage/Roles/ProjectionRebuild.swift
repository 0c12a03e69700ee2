import EntitleCore

/// What rebuilding the projections did: how many subscribers and events were folded, and how many
/// projections differed from the ones they replaced (none stored counts as differing).
public struct ProjectionRebuild: Sendable, Equatable {
    public var rebuilt = 0
    public var events = 0
    public var differed = 0
    /// The first of those that differed, in order, up to the limit asked for.
    public var firstDiffering: [AppUserID] = []

    public init() {}

    mutating func add(_ other: ProjectionRebuild, keepingDifferences limit: Int) {
        rebuilt += other.rebuilt
        events += other.events
        differed += other.differed
        firstDiffering += other.firstDiffering.prefix(max(0, limit - firstDiffering.count))
    }
}
