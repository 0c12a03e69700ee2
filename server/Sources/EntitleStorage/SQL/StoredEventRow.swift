/// An event as `ledger_events` stores it: its JSON (``StoredJSON``), and its signed payload apart, in
/// the compact form (``StoredSignedPayload``) or as received.
struct StoredEventRow: Sendable {
    let json: String
    let signedPayload: String?

    /// A row with no signed payload (events the ledger makes itself: merges, transfers).
    init(json: String, signedPayload: String? = nil) {
        self.json = json
        self.signedPayload = signedPayload
    }
}
