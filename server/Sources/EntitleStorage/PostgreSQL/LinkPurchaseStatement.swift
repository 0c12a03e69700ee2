/// A purchase linked to a subscriber, the events held for it adopted, and those events read, in one
/// round trip instead of three (binds: app, original transaction, subscriber, linked at, then
/// subscriber, app, original transaction again). The insert and the update touch different tables,
/// so the snapshot they share changes nothing; the caller's transaction holds the purchase's lock.
enum LinkPurchaseStatement: KeptStatement {
    static let name = "entitle_link_purchase"
    static let sql = """
        WITH link AS (
            INSERT INTO purchase_links (app_id, original_transaction_id, app_user_id, linked_at) VALUES (?, ?, ?, ?)
        ), held AS (
            UPDATE ledger_events SET app_user_id = ? WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL
            RETURNING sequence, event
        )
        SELECT event FROM held ORDER BY sequence
        """
}
