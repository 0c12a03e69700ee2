/// An append's first steps as one PostgreSQL function, so they cost one round trip instead of six:
/// lock the purchase, find its owner (or the subscriber its appAccountToken was registered for), lock
/// that subscriber, take the shared append lock, insert the event unless its idempotency key is known,
/// and read the subscriber's projection unless the caller keeps that subscriber's revision.
///
/// It does what ``SQLLedgerStore``'s statements do, in the same order and with the same lock keys, so
/// writers using either serialise with each other. A volatile PL/pgSQL function takes a new snapshot for
/// every statement, so what it reads after a lock includes what the lock's previous holder committed.
/// Replaced at every migration; its name carries its version, so instances running an older Entitle
/// keep theirs.
enum AppendRoutine: KeptStatement {
    static let name = "entitle_append_v1"

    /// The call: `?` placeholders in the order of ``SQLLedgerStore``'s binds; kept prepared on each
    /// connection under the function's name.
    static let sql = """
        SELECT o_app_user_id, o_owner, o_sequence, o_found, o_revision, o_projection
        FROM \(name)(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    /// Takes the transaction's advisory lock on the `kind` that the PL/pgSQL expression `name` names, of
    /// the app `p_app`: the key ``LedgerLock`` makes. Shared with ``KeptAppendRoutine``.
    static func lock(_ kind: LedgerLock.Kind, _ name: String) -> String {
        LedgerLock.routineStatement(kind, app: "p_app", id: name)
    }

    /// The append guard and the event's insert, its owner in the PL/pgSQL variable `owner`; the new
    /// sequence (none: a duplicate) into `o_sequence`. Shared with ``KeptAppendRoutine``.
    static func insert(owner: String) -> String {
        """
        PERFORM pg_advisory_xact_lock_shared(\(PostgresEngine.appendLock));
                    INSERT INTO ledger_events (id, app_id, idempotency_key, app_user_id, source, notification_uuid, transaction_id,
                        original_transaction_id, signed_date, received_at, event, app_account_token, signed_payload)
                    VALUES (p_id, p_app, p_idempotency_key, \(owner), p_source, p_notification_uuid, p_transaction_id,
                        p_original, p_signed_date, p_received_at, p_event, p_token, p_signed_payload)
                    ON CONFLICT (app_id, idempotency_key) DO NOTHING
                    RETURNING ledger_events.sequence INTO o_sequence;
        """
    }

    static let definition = """
        CREATE OR REPLACE FUNCTION \(name)(
            p_app TEXT, p_original TEXT, p_app_user_id TEXT, p_token TEXT, p_kept_user TEXT, p_kept BIGINT,
            p_id TEXT, p_idempotency_key TEXT, p_source TEXT, p_notification_uuid TEXT, p_transaction_id TEXT,
            p_signed_date BIGINT, p_received_at BIGINT, p_event TEXT, p_signed_payload TEXT,
            OUT o_app_user_id TEXT, OUT o_owner TEXT, OUT o_sequence BIGINT, OUT o_found BIGINT,
            OUT o_revision BIGINT, OUT o_projection TEXT
        ) LANGUAGE plpgsql VOLATILE AS $$
        BEGIN
            o_app_user_id := p_app_user_id;
            o_found := 0;
            IF p_original IS NOT NULL THEN
                \(lock(.purchase, "p_original"))
                SELECT l.app_user_id INTO o_owner FROM purchase_links l
                WHERE l.app_id = p_app AND l.original_transaction_id = p_original;
                o_app_user_id := COALESCE(o_app_user_id, o_owner);
                IF o_app_user_id IS NULL AND p_token IS NOT NULL THEN
                    SELECT t.app_user_id INTO o_app_user_id FROM account_tokens t WHERE t.app_id = p_app AND t.token = p_token;
                END IF;
            END IF;
            IF o_app_user_id IS NOT NULL THEN
                \(lock(.subscriber, "o_app_user_id"))
            END IF;
            \(insert(owner: "o_app_user_id"))
            IF o_sequence IS NULL OR o_app_user_id IS NULL THEN
                RETURN;
            END IF;
            SELECT s.revision, CASE WHEN s.app_user_id = p_kept_user AND s.revision = p_kept THEN NULL ELSE s.projection END
            INTO o_revision, o_projection
            FROM subscribers s WHERE s.app_id = p_app AND s.app_user_id = o_app_user_id;
            IF FOUND THEN
                o_found := 1;
            END IF;
        END
        $$
        """
}
