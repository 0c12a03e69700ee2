import EntitleCore
import Foundation

extension MemoryLedgerStore {
    public func feedHead() async throws(StorageError) -> Int64 {
        database.ledger(app) { ledger, _ in ledger.rows.last?.sequence ?? 0 }
    }

    public func feedEvents(after position: Int64, through head: Int64, limit: Int) async throws(StorageError) -> [(sequence: Int64, event: LedgerEvent)] {
        database.ledger(app) { ledger, _ in
            ledger.rows(after: position).prefix { $0.sequence <= head }.prefix(max(1, limit)).map { ($0.sequence, Self.bare($0.event)) }
        }
    }

    public func wholeEvents(sequences: [Int64]) async throws(StorageError) -> [Int64: LedgerEvent] {
        let wanted = Set(sequences)
        return database.ledger(app) { ledger, _ in
            Dictionary(uniqueKeysWithValues: ledger.rows(after: 0).filter { wanted.contains($0.sequence) }.map { ($0.sequence, $0.event) })
        }
    }
}
