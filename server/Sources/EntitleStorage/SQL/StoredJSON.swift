import EntitleCore
import Foundation

/// How the ledger stores its JSON, in one place: events (without their signed payload, which has a
/// column of its own) and projections, written by the fast writers (``StoredEventWriter``,
/// ``StoredProjectionWriter``) where they apply and by `Codable` otherwise, read back by
/// ``StoredEventReader`` or `Codable`: the same text either way, which their tests check.
enum StoredJSON {
    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .millisecondsSince1970
        return decoder
    }

    /// The event as stored in `event`: without its signed payload, which has a column of its own, and
    /// compact when that is shorter (``StoredEventJSON``).
    static func encode(_ event: LedgerEvent) throws(StorageError) -> String {
        var stored = event
        stored.rawSignedPayload = nil
        if let json = StoredEventWriter.json(stored) { return StoredEventJSON.compact(json) }
        do {
            return StoredEventJSON.compact(String(decoding: try encoder.encode(stored), as: UTF8.self))
        } catch {
            throw StorageError(.corruptRecord, "the event \(event.id) does not encode", underlying: error)
        }
    }

    static func decodeEvents(_ rows: [SQLRow]) throws(StorageError) -> [LedgerEvent] {
        let decoder = decoder()
        var events: [LedgerEvent] = []
        events.reserveCapacity(rows.count)
        for row in rows {
            guard let stored = try row.nullableText("event") else { throw StorageError(.corruptRecord, "a ledger row has no event") }
            guard let json = StoredEventJSON.expand(stored) else { throw StorageError(.corruptRecord, "a ledger event's compact JSON does not read back") }
            do {
                var event = try StoredEventReader.event(json) ?? decoder.decode(LedgerEvent.self, from: Data(json.utf8))
                // Reads made for folding and consumers leave the signed payload out of their columns.
                if row.has("signed_payload"), let signed = try row.nullableText("signed_payload") { event.rawSignedPayload = signed }
                events.append(event)
            } catch {
                throw StorageError(.corruptRecord, "a ledger event does not decode", underlying: error)
            }
        }
        return events
    }

    static func decodeProjection(_ json: String?, appUserID: AppUserID) throws(StorageError) -> SubscriberFacts? {
        guard let json else { return nil }
        do {
            return try decoder().decode(SubscriberFacts.self, from: Data(json.utf8))
        } catch {
            throw StorageError(.corruptRecord, "the projection of \(appUserID) does not decode", underlying: error)
        }
    }

    static func encodeProjection(_ facts: SubscriberFacts, appUserID: AppUserID) throws(StorageError) -> String {
        if let json = StoredProjectionWriter.json(facts) { return json }
        do {
            return String(decoding: try encoder.encode(facts), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the projection of \(appUserID) does not encode", underlying: error)
        }
    }
}
