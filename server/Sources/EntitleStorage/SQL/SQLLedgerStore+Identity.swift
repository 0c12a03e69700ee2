import EntitleCore
import Foundation

/// Who owns what: purchase links, appAccountTokens, log-in merges, transfers (``IdentityStore``).
extension SQLLedgerStore {
    func registerAccountToken(_ token: UUID, appUserID: AppUserID, at: Date) async throws(StorageError) -> AccountTokenRegistration {
        let app = app
        let text = token.uuidString.lowercased()
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock(LedgerLock.subscriber(app, appUserID))
            if let existing = try await LedgerRows.tokenOwner(app, token, session) {
                guard existing == appUserID else { return .ownedBy(existing) }
            } else {
                _ = try await session.execute(
                    "INSERT INTO account_tokens (app_id, token, app_user_id, registered_at) VALUES (?, ?, ?, ?)",
                    [.id(app), .text(text), .id(appUserID), SQLValue(at)])
            }
            // Purchases that arrived before the token was known, with no owner yet: they are this subscriber's.
            // Deduplicated and ordered here: asked of the database, SQLite would walk every purchase's
            // events in order rather than look the token up.
            let originals = Set(try await session.execute(
                """
                SELECT original_transaction_id FROM ledger_events
                WHERE app_id = ? AND app_account_token = ? AND app_user_id IS NULL AND original_transaction_id IS NOT NULL
                """, [.id(app), .text(text)]
            ).map { row throws(StorageError) in try row.id("original_transaction_id", as: OriginalTransactionID.self) }).sorted()
            var linked: [OriginalTransactionID] = []
            var facts = try await self.rows.projection(app, appUserID, session) ?? SubscriberFacts(appUserID: appUserID)
            var applied = 0
            for original in originals where try await LedgerRows.owner(app, original, session) == nil {
                applied += try await self.rows.linkPurchase(original, to: appUserID, at: at, folding: &facts, session)
                linked.append(original)
            }
            if applied > 0 {
                try await self.rows.store(facts, app: app, appUserID: appUserID, addedEvents: applied, at: at, session)
            }
            return .registered(linkedPurchases: linked)
        }
    }

    func merge(anonymous: AppUserID, into known: AppUserID, at: Date) async throws(StorageError) -> MergeOutcome {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            for id in [anonymous, known].sorted() { try await session.lock(LedgerLock.subscriber(app, id)) }
            if let target = try await LedgerRows.aliasTarget(app, anonymous, session) {
                return target == known ? .alreadyMerged : .mergedElsewhere(target)
            }
            var anonymousFacts = try await self.rows.projection(app, anonymous, session) ?? SubscriberFacts(appUserID: anonymous)
            var knownFacts = try await self.rows.projection(app, known, session) ?? SubscriberFacts(appUserID: known)
            let merge = SubscriberMerge(anonymous: anonymous, into: known, at: at, id: UUID(), outgoingID: UUID())
            let incoming = merge.incoming(carrying: anonymousFacts)
            let outgoing = merge.outgoing
            for event in [incoming, outgoing] {
                _ = try await self.rows.insert(event, appUserID: event.appUserID, encoded: StoredEventRow(json: try StoredJSON.encode(event)), session)
            }
            _ = try await session.execute(
                "UPDATE purchase_links SET app_user_id = ?, linked_at = ? WHERE app_id = ? AND app_user_id = ?",
                [.id(known), SQLValue(at), .id(app), .id(anonymous)])
            _ = try await session.execute(
                "UPDATE account_tokens SET app_user_id = ? WHERE app_id = ? AND app_user_id = ?", [.id(known), .id(app), .id(anonymous)])
            _ = try await session.execute(
                "INSERT INTO subscriber_aliases (app_id, alias, app_user_id, merged_at) VALUES (?, ?, ?, ?)",
                [.id(app), .id(anonymous), .id(known), SQLValue(at)])
            knownFacts.apply(incoming)
            anonymousFacts.apply(outgoing)
            try await self.rows.store(knownFacts, app: app, appUserID: known, addedEvents: 1, at: at, session)
            try await self.rows.store(anonymousFacts, app: app, appUserID: anonymous, addedEvents: 1, at: at, session)
            return .merged
        }
    }

    func aliasTarget(_ appUserID: AppUserID) async throws(StorageError) -> AppUserID? {
        try await engine.read { session throws(StorageError) in try await LedgerRows.aliasTarget(app, appUserID, session) }
    }

    func accountTokenOwner(_ token: UUID) async throws(StorageError) -> AppUserID? {
        try await engine.read { session throws(StorageError) in try await LedgerRows.tokenOwner(app, token, session) }
    }

    func transfer(originalTransactionID original: OriginalTransactionID, to newOwner: AppUserID, at: Date) async throws(StorageError) -> AppUserID? {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock(LedgerLock.purchase(app, original))
            guard let previous = try await LedgerRows.owner(app, original, session), previous != newOwner else {
                return try await LedgerRows.owner(app, original, session)
            }
            for subscriber in [previous, newOwner].sorted() {
                try await session.lock(LedgerLock.subscriber(app, subscriber))
            }
            var previousFacts = try await self.rows.projection(app, previous, session) ?? SubscriberFacts(appUserID: previous)
            var newFacts = try await self.rows.projection(app, newOwner, session) ?? SubscriberFacts(appUserID: newOwner)
            let transfer = PurchaseTransfer(originalTransactionID: original, from: previous, to: newOwner, at: at, id: UUID(), outgoingID: UUID())
            let outgoing = transfer.outgoing
            let incoming = transfer.incoming(carrying: previousFacts.carried(original))
            for event in [outgoing, incoming] {
                _ = try await self.rows.insert(event, appUserID: event.appUserID, encoded: StoredEventRow(json: try StoredJSON.encode(event)), session)
            }
            _ = try await session.execute(
                "UPDATE purchase_links SET app_user_id = ?, linked_at = ? WHERE app_id = ? AND original_transaction_id = ?",
                [.id(newOwner), SQLValue(at), .id(app), .id(original)])
            previousFacts.apply(outgoing)
            newFacts.apply(incoming)
            try await self.rows.store(previousFacts, app: app, appUserID: previous, addedEvents: 1, at: at, session)
            try await self.rows.store(newFacts, app: app, appUserID: newOwner, addedEvents: 1, at: at, session)
            return previous
        }
    }

    func owner(originalTransactionID: OriginalTransactionID) async throws(StorageError) -> AppUserID? {
        try await engine.read { session throws(StorageError) in try await LedgerRows.owner(app, originalTransactionID, session) }
    }

    func owners(originalTransactionIDs: Set<OriginalTransactionID>) async throws(StorageError) -> [OriginalTransactionID: AppUserID] {
        guard !originalTransactionIDs.isEmpty else { return [:] }
        let app = app
        return try await engine.read { session throws(StorageError) in
            var owners: [OriginalTransactionID: AppUserID] = [:]
            let list = SQLValue.inList(originalTransactionIDs.sorted().map { SQLValue.id($0) })
            for row in try await session.execute(
                """
                SELECT original_transaction_id, app_user_id FROM purchase_links
                WHERE app_id = ? AND original_transaction_id IN \(list.placeholders)
                """, [.id(app)] + list.values)
            {
                if let original: OriginalTransactionID = try row.nullableID("original_transaction_id"), let owner: AppUserID = try row.nullableID("app_user_id") { owners[original] = owner }
            }
            return owners
        }
    }

}
