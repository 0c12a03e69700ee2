import EntitleCore
import NIOConcurrencyHelpers

/// Decoded projections, each kept with the revision it was stored under: a read that finds the
/// stored revision equal to the kept one uses the kept facts instead of decoding the JSON again.
///
/// Every store of a projection writes a new random revision, so a kept entry matches only the very
/// write it came from, whichever instance wrote since and whether or not its transaction committed:
/// nothing here can be stale, only missing. Bounded: past `capacity` subscribers the one kept longest
/// ago makes room (``BoundedDictionary``).
final class ProjectionCache: Sendable {
    private struct Entry {
        let revision: Int64
        let facts: SubscriberFacts
    }

    private let entries: NIOLockedValueBox<BoundedDictionary<String, Entry>>
    /// The subscriber each purchase's last append went to: a hint, never trusted as an owner.
    private let owners: NIOLockedValueBox<BoundedDictionary<String, AppUserID>>
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
        self.entries = NIOLockedValueBox(BoundedDictionary(capacity: capacity))
        self.owners = NIOLockedValueBox(BoundedDictionary(capacity: capacity))
    }

    /// The revision kept for `appUserID` of `app`, or 0 (no revision is 0).
    func revision(_ app: BundleID, _ appUserID: AppUserID) -> Int64 {
        entries.withLockedValue { $0[Self.key(app, appUserID)]?.revision ?? 0 }
    }

    /// The facts kept for `appUserID` of `app` if they are those of `revision`.
    func facts(_ app: BundleID, _ appUserID: AppUserID, revision: Int64) -> SubscriberFacts? {
        entries.withLockedValue { entries in
            guard let entry = entries[Self.key(app, appUserID)], entry.revision == revision else { return nil }
            return entry.facts
        }
    }

    func keep(_ facts: SubscriberFacts, revision: Int64, app: BundleID, appUserID: AppUserID) {
        entries.withLockedValue { $0.set(Entry(revision: revision, facts: facts), for: Self.key(app, appUserID)) }
    }

    /// Drops what is kept of `appUserID` (an erased customer): an empty entry under a revision no row has.
    func forget(_ app: BundleID, _ appUserID: AppUserID) {
        entries.withLockedValue { $0.set(Entry(revision: -1, facts: SubscriberFacts(appUserID: appUserID)), for: Self.key(app, appUserID)) }
    }

    /// The subscriber the last append of purchase `original` of `app` went to, if noted: only a hint of
    /// whose projection an append will read.
    func lastOwner(_ app: BundleID, _ original: OriginalTransactionID) -> AppUserID? {
        owners.withLockedValue { $0[Self.key(app, original)] }
    }

    func noteOwner(_ appUserID: AppUserID, app: BundleID, original: OriginalTransactionID) {
        owners.withLockedValue { $0.set(appUserID, for: Self.key(app, original)) }
    }

    /// A new revision: random, never 0.
    static func newRevision() -> Int64 { Int64.random(in: 1...Int64.max) }

    private static func key<Identifier: StringIdentifier>(_ app: BundleID, _ id: Identifier) -> String { app.rawValue + "\u{1F}" + id.rawValue }
}
