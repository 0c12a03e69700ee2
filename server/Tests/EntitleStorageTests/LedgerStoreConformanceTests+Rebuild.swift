import EntitleCore
@testable import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

extension LedgerStoreConformanceTests {
    @Test(
        "a rebuild over more than a page of subscribers writes each projection once, equal to the live one; a projection made wrong is named as differing",
        arguments: StorageEngine.databases)
    func rebuildPages(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let count = SQLLedgerStore.rebuildPage + 60
            let ids = (0..<count).map { AppUserID(String(format: "user-%04d", $0)) }
            var events: [LedgerEvent] = []
            for (number, id) in ids.enumerated() {
                let at = ReferenceTime.start + Double(number)
                events.append(LedgerEvents.admin(2 * number + 1, appUserID: id, at: at, .appTrialStarted(at: at)))
                if number % 3 == 0 { events.append(LedgerEvents.admin(2 * number + 2, appUserID: id, at: at + 60, .appTrialStarted(at: at + 60))) }
            }
            _ = try await store.append(contentsOf: events)
            var live: [AppUserID: SubscriberFacts] = [:]
            for id in ids { live[id] = try await store.projection(appUserID: id) }

            let untouched = try await store.rebuildProjections(keepingDifferences: 10)
            #expect(untouched.rebuilt == count)
            #expect(untouched.events == events.count)
            #expect(untouched.differed == 0)
            for id in ids { #expect(try await store.projection(appUserID: id) == live[id]) }

            // A projection written wrong (as a bug would): the rebuild mends it and names it.
            let wrong = ids[SQLLedgerStore.rebuildPage + 7]
            guard let sql = store as? SQLLedgerStore else { Issue.record("not an SQL ledger"); return }
            try await sql.engine.transaction { session throws(StorageError) in
                _ = try await session.execute(
                    "UPDATE subscribers SET projection = ?, revision = 0 WHERE app_id = ? AND app_user_id = ?",
                    [.text(try StoredJSON.encodeProjection(SubscriberFacts(appUserID: wrong), appUserID: wrong)), .id(sql.app), .id(wrong)])
            }
            let mended = try await store.rebuildProjections(keepingDifferences: 10)
            #expect(mended.rebuilt == count)
            #expect(mended.differed == 1)
            #expect(mended.firstDiffering == [wrong])
            #expect(try await store.projection(appUserID: wrong) == live[wrong])
        }
    }
}
