import Foundation

/// The trace context (W3C `traceparent`) each ledger event was appended under, while tracing is on, so the
/// background work the event causes later — its webhooks' deliveries — continues the request's trace
/// (docs/operations.md, "Traces"). Per app; kept a day.
public protocol TraceContextStore: Sendable {
    /// Records that the event `eventID` was appended under `traceParent`.
    func recordTrace(eventID: String, traceParent: String, at: Date) async throws(StorageError)
    /// The trace contexts of those of `eventIDs` that have one.
    func traceParents(eventIDs: [String]) async throws(StorageError) -> [String: String]
    /// Forgets what was recorded before `date`; returns how many.
    @discardableResult
    func deleteTraces(before date: Date) async throws(StorageError) -> Int
}
