import EntitleStorage
import Foundation

/// How a benchmark prints a ledger's footprint per event, beside the signed bytes its events hold.
public enum FootprintReport {
    public static func lines(_ footprint: LedgerFootprint, signedBytes: Int) -> [String] {
        let events = Double(max(1, footprint.events))
        let projections = footprint.tables["subscribers"] ?? 0
        let eventsTable = footprint.tables["ledger_events"] ?? 0
        let other = footprint.total - eventsTable - projections - footprint.indexTotal
        return [
            String(format: "  on disk: %.1f MB for %lld events: %.0f bytes per event, %.3f of the signed payloads as received (%.0f bytes per event)",
                   Double(footprint.total) / 1e6, footprint.events, Double(footprint.total) / events, Double(footprint.total) / Double(max(1, signedBytes)),
                   Double(signedBytes) / events),
            String(format: "    per event: events table %.0f (signed payloads stored %.0f, event JSON %.0f), projections %.0f, indexes %.0f, the rest %.0f",
                   Double(eventsTable) / events, Double(footprint.storedSignedPayloads) / events, Double(footprint.eventJSON) / events,
                   Double(projections) / events, Double(footprint.indexTotal) / events, Double(other) / events),
        ]
    }
}
