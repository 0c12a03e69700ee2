import EntitleCore
import EntitleStorage
import NIOConcurrencyHelpers

/// The webhook snapshots this instance stored last, kept while it holds the publishing lease without a
/// break: what each step would otherwise read and decode again for every subscriber it takes in.
/// Forgotten when the lease lapsed (another instance may have published since), when the cursor is not
/// where this instance left it, when another instance stored a step first, and when it outgrows its bound.
final class WebhookSnapshotCache: Sendable {
    private struct State {
        /// The webhooks' cursor after the last step this instance stored.
        var position: Int64?
        var snapshots: [AppUserID: WebhookSnapshot] = [:]
    }

    private let state = NIOLockedValueBox(State())
    /// Subscribers kept at most; past it the cache starts again.
    let capacity: Int

    init(capacity: Int = 10_000) {
        self.capacity = capacity
    }

    /// The kept snapshots of `appUserIDs`, and those it has none of (read them from the store). With a
    /// `position` other than where this instance left the cursor, nothing is kept any more.
    func snapshots(of appUserIDs: Set<AppUserID>, cursorAt position: Int64?) -> (found: [AppUserID: WebhookSnapshot], missing: Set<AppUserID>) {
        state.withLockedValue { state in
            if let position, state.position != position { state = State() }
            var found: [AppUserID: WebhookSnapshot] = [:]
            var missing = Set<AppUserID>()
            for appUserID in appUserIDs {
                if let snapshot = state.snapshots[appUserID] { found[appUserID] = snapshot } else { missing.insert(appUserID) }
            }
            return (found, missing)
        }
    }

    /// Keeps what a step stored; `position`: where the step left the cursor (`nil`: it did not move it).
    func stored(_ snapshots: [AppUserID: WebhookSnapshot], cursorAt position: Int64?) {
        state.withLockedValue { state in
            if state.snapshots.count + snapshots.count > capacity { state.snapshots = [:] }
            state.snapshots.merge(snapshots) { _, new in new }
            if let position { state.position = position }
        }
    }

    func forget() {
        state.withLockedValue { $0 = State() }
    }
}
