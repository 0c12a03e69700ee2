import EntitleCore
import Foundation

/// An app's events' trace contexts in a ``MemoryDatabase`` (``TraceContextStore``).
struct MemoryTraceContextStore: TraceContextStore {
    let database: MemoryDatabase
    let app: BundleID

    func recordTrace(eventID: String, traceParent: String, at: Date) async throws(StorageError) {
        database.transaction { state in
            if state.traces[app, default: [:]][eventID] == nil { state.traces[app, default: [:]][eventID] = (traceParent, at.storedPrecision) }
        }
    }

    func traceParents(eventIDs: [String]) async throws(StorageError) -> [String: String] {
        database.transaction { state in
            let traces = state.traces[app] ?? [:]
            return Dictionary(uniqueKeysWithValues: eventIDs.compactMap { id in traces[id].map { (id, $0.traceParent) } })
        }
    }

    func deleteTraces(before date: Date) async throws(StorageError) -> Int {
        database.transaction { state in
            let old = (state.traces[app] ?? [:]).filter { $0.value.at < date.storedPrecision }.keys
            for id in old { state.traces[app]?[id] = nil }
            return old.count
        }
    }
}
