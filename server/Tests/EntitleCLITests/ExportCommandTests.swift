import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

@Suite("entitle export")
struct ExportCommandTests {
    let entitle = CommandRunner.entitle

    @Test("transactions: every one to a file, then from the next cursor only what the ledger stored since; usage errors exit 64")
    func transactions() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("entitle.sqlite").path
        let events = AnalyticsLedger.events
        var store = try await SQLiteLedgerStore.open(path: path).forApp("com.screentimerewards")
        var stored = 0
        for event in events.prefix(12) where try await store.append(event) != .duplicate { stored += event.payload.carriesTransaction ? 1 : 0 }
        await store.close()
        let catalog = Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path
        let file = folder.appendingPathComponent("transactions.csv").path

        let first = try await entitle.run(["export", "transactions", "--database", "sqlite:\(path)", "--catalog", catalog, "--output", file])
        #expect(first.status == 0, "\(first.standardError)")
        let lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\r\n")
        #expect(lines.first?.hasPrefix("rc_original_app_user_id,") == true && lines.count == 1 + stored)
        let cursor = try #require(first.standardError.split(separator: "\n").first { $0.hasPrefix("next cursor: ") }?.dropFirst(13))
        #expect(first.standardError.contains("exported \(stored) transactions"))

        store = try await SQLiteLedgerStore.open(path: path).forApp("com.screentimerewards")
        var added: [String] = []
        for event in events.dropFirst(12) where try await store.append(event) != .duplicate {
            if case .notification(_, _, let transaction?, _) = event.payload, let id = transaction.transactionId { added.append(id) }
            if case .transaction(let transaction) = event.payload, let id = transaction.transactionId { added.append(id) }
        }
        await store.close()
        let second = try await entitle.run([
            "export", "transactions", "--database", "sqlite:\(path)", "--catalog", catalog, "--format", "jsonl", "--cursor", String(cursor),
        ])
        #expect(second.status == 0, "\(second.standardError)")
        let rows = try second.standardOutput.split(separator: "\n").map { try WireJSON.decoder.decode(TransactionExportRow.self, from: Data($0.utf8)) }
        #expect(rows.map(\.storeTransactionID) == added)

        for arguments in [["--format", "xml"], ["--cursor", "-3"]] {
            let refused = try await entitle.run(["export", "transactions", "--database", "sqlite:\(path)", "--catalog", catalog] + arguments)
            #expect(refused.status == 64, "\(arguments): \(refused.standardError)")
        }
    }
}

extension LedgerEventPayload {
    /// Whether the event brings a transaction (the app's, or in Apple's notification).
    var carriesTransaction: Bool {
        switch self {
        case .transaction, .notification(_, _, _?, _): true
        default: false
        }
    }
}
