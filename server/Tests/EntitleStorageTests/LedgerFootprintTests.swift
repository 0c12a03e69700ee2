import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// What a ledger takes on disk, as the growth benchmarks and an operator read it.
@Suite("LedgerFootprint")
struct LedgerFootprintTests {
    @Test("a ledger is measured on either database: its events and their stored columns, every table and index with its bytes", arguments: StorageEngine.databases)
    func measured(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            for n in 1...20 {
                _ = try await store.append(LedgerEvents.admin(n, appUserID: AppUserID("u\(n)"), at: ReferenceTime.start, .appTrialStarted(at: ReferenceTime.start)))
            }
            let footprint = try await LedgerFootprint.measure(store)
            #expect(footprint.events == 20)
            #expect(footprint.eventJSON > 0)
            #expect(footprint.total > 0)
            #expect((footprint.tables["ledger_events"] ?? 0) > 0, "\(footprint.tables)")
            #expect(footprint.indexTotal > 0)
        }
    }

    @Test("a ledger in memory has no disk to measure: refused with a reason")
    func memory() async {
        await #expect(throws: StorageError(.unavailable, "")) { try await LedgerFootprint.measure(MemoryLedgerStore()) }
    }
}
