import EntitleCore
import Foundation

/// The events an app's consumers set aside, in a ``MemoryDatabase`` (``SetAsideStore``).
struct MemorySetAsideStore: SetAsideStore {
    let database: MemoryDatabase
    let app: BundleID

    func setAside(_ events: [SetAsideEvent]) async throws(StorageError) -> Int {
        database.transaction { state in
            var added = 0
            for event in events where !(state.setAside[app] ?? []).contains(where: { $0.consumer == event.consumer && $0.eventID == event.eventID }) {
                var stored = event
                stored.setAsideAt = event.setAsideAt.storedPrecision
                state.setAside[app, default: []].append(stored)
                added += 1
            }
            return added
        }
    }

    func setAsideEvents(limit: Int) async throws(StorageError) -> [SetAsideEvent] {
        database.transaction { state in
            Array((state.setAside[app] ?? []).sorted {
                $0.setAsideAt != $1.setAsideAt ? $0.setAsideAt > $1.setAsideAt : $0.eventID.uuidString < $1.eventID.uuidString
            }.prefix(max(0, limit)))
        }
    }
}
