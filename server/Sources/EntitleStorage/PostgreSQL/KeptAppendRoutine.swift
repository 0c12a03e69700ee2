/// A whole append as one PostgreSQL statement, for the common case: the instance keeps the projection
/// of the subscriber the event goes to, at the revision stored. The caller folds the event into its
/// kept projection first and passes the result; the function takes the locks ``AppendRoutine`` takes,
/// in the same order, and checks that the stored revision is still the kept one before it inserts the
/// event and writes the projection. One statement outside any transaction is atomic on its own, so
/// BEGIN, the projection's write and COMMIT cost no round trips of their own.
///
/// It writes nothing and answers `o_done = 0` when any of that doesn't hold (the purchase has no owner
/// yet, so held events must be linked; the subscriber is another one; another writer stored a new
/// revision): the caller then appends with ``AppendRoutine`` and statements, as without it. A
/// duplicate answers `o_done = 1` with no sequence, and changes nothing.
///
/// Replaced at every migration, like ``AppendRoutine``; its name carries its version.
enum KeptAppendRoutine: KeptStatement {
    static let name = "entitle_append_kept_v1"

    /// The call: `?` placeholders for ``AppendRoutine``'s binds, then the folded projection and its
    /// new revision; kept prepared on each connection under the function's name.
    static let sql = """
        SELECT o_done, o_sequence FROM \(name)(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """

    static let definition = """
        CREATE OR REPLACE FUNCTION \(name)(
            p_app TEXT, p_original TEXT, p_app_user_id TEXT, p_token TEXT, p_kept_user TEXT, p_kept BIGINT,
            p_id TEXT, p_idempotency_key TEXT, p_source TEXT, p_notification_uuid TEXT, p_transaction_id TEXT,
            p_signed_date BIGINT, p_received_at BIGINT, p_event TEXT, p_signed_payload TEXT,
            p_projection TEXT, p_revision BIGINT,
            OUT o_done BIGINT, OUT o_sequence BIGINT
        ) LANGUAGE plpgsql VOLATILE AS $$
        DECLARE
            v_user TEXT := p_app_user_id;
            v_owner TEXT;
            v_revision BIGINT;
        BEGIN
            o_done := 0;
            IF p_original IS NOT NULL THEN
                \(AppendRoutine.lock(.purchase, "p_original"))
                SELECT l.app_user_id INTO v_owner FROM purchase_links l
                WHERE l.app_id = p_app AND l.original_transaction_id = p_original;
                IF v_owner IS NULL THEN
                    RETURN;
                END IF;
                v_user := COALESCE(v_user, v_owner);
            END IF;
            IF v_user IS NULL OR v_user <> p_kept_user THEN
                RETURN;
            END IF;
            \(AppendRoutine.lock(.subscriber, "v_user"))
            SELECT s.revision INTO v_revision FROM subscribers s WHERE s.app_id = p_app AND s.app_user_id = v_user;
            IF v_revision IS DISTINCT FROM p_kept THEN
                RETURN;
            END IF;
            \(AppendRoutine.insert(owner: "v_user"))
            o_done := 1;
            IF o_sequence IS NOT NULL THEN
                UPDATE subscribers SET projection = p_projection, event_count = event_count + 1, updated_at = p_received_at,
                    revision = p_revision
                WHERE app_id = p_app AND app_user_id = v_user;
            END IF;
        END
        $$
        """
}
