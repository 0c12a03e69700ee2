import EntitleCore
import Foundation

/// The statements and codecs the operations share: inserting an event, the advisory locks, the stored JSON.
extension SQLLedgerStore {
    /// Stores `event` for `appUserID` unless its idempotency key is known; returns its sequence, or
    /// `nil` for a duplicate.
    func insert(
        _ event: LedgerEvent, appUserID: String?, encoded: String, _ session: any SQLSession
    ) async throws(StorageError) -> Int64? {
        if let guardStatement = engine.appendGuardStatement { _ = try await session.execute(guardStatement, []) }
        return try await session.execute(
            """
            INSERT INTO ledger_events (id, app_id, idempotency_key, app_user_id, source, notification_uuid, transaction_id,
                original_transaction_id, signed_date, received_at, event, app_account_token, signed_payload)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (app_id, idempotency_key) DO NOTHING
            RETURNING sequence
            """,
            [
                .text(event.id.uuidString), .text(app), .text(event.idempotencyKey), SQLValue(appUserID), .text(event.source.rawValue),
                SQLValue(event.notificationUUID), SQLValue(event.transactionID), SQLValue(event.originalTransactionID),
                SQLValue(event.signedDate), SQLValue(event.receivedAt), .text(encoded),
                SQLValue(event.appAccountToken.map { $0.uuidString.lowercased() }), SQLValue(event.rawSignedPayload),
            ]
        ).first?["sequence"]?.integer
    }

    /// The advisory lock serialising writers of one subscriber of `app` (PostgreSQL; SQLite has one writer).
    static func subscriberLock(_ app: String, _ appUserID: String) -> String { "subscriber:\(app)\u{1F}\(appUserID)" }

    /// The advisory lock serialising writers of one purchase of `app`.
    static func purchaseLock(_ app: String, _ original: String) -> String { "purchase:\(app)\u{1F}\(original)" }

    /// The event as stored in `event`: without its signed payload, which has a column of its own.
    static func encode(_ event: LedgerEvent) throws(StorageError) -> String {
        var stored = event
        stored.rawSignedPayload = nil
        if let json = StoredEventWriter.json(stored) { return json }
        do {
            return String(decoding: try encoder.encode(stored), as: UTF8.self)
        } catch {
            throw StorageError(.corruptRecord, "the event \(event.id) does not encode", underlying: error)
        }
    }

    static func decodeEvents(_ rows: [[String: SQLValue]]) throws(StorageError) -> [LedgerEvent] {
        let decoder = decoder()
        var events: [LedgerEvent] = []
        events.reserveCapacity(rows.count)
        for row in rows {
            guard let json = row["event"]?.text else { throw StorageError(.corruptRecord, "a ledger row has no event") }
            do {
                var event = try StoredEventReader.event(json) ?? decoder.decode(LedgerEvent.self, from: Data(json.utf8))
                if let signed = row["signed_payload"]?.text { event.rawSignedPayload = signed }
                events.append(event)
            } catch {
                throw StorageError(.corruptRecord, "a ledger event does not decode", underlying: error)
            }
        }
        return events
    }
}
