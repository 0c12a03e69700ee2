import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// `GET /v1/exports/transactions`: every transaction in ledger order, RevenueCat's columns, a cursor that
/// exports only what is new, CSV and JSON lines alike.
@Suite("Transaction export")
struct TransactionExportTests {
    static func export(_ harness: ServerHarness, _ client: any TestClientProtocol, _ query: String) async throws -> (body: String, next: String?) {
        let response = try await harness.get(client, "/v1/exports/transactions?\(query)", key: ServerHarness.secretKey)
        return (String(buffer: response.body), response.headers[HTTPField.Name("Entitle-Next-Cursor")!])
    }

    /// The transactions the analytics ledger's events carry, in the order they were stored.
    static func carried(_ events: [LedgerEvent]) -> [JWSTransactionDecodedPayload] {
        events.compactMap { event in
            switch event.payload {
            case .transaction(let transaction): transaction
            case .notification(_, _, let transaction?, _): transaction
            default: nil
            }
        }
    }

    @Test("every transaction the ledger carries, once per signed version, in order; the next cursor exports only what came after", arguments: StorageEngine.databases)
    func incremental(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let events = AnalyticsLedger.events
            // Those stored: a second version of a transaction the app submitted again is a duplicate.
            var (early, late): ([LedgerEvent], [LedgerEvent]) = ([], [])
            for event in events.prefix(events.count / 2) where try await harness.store.append(event) != .duplicate { early.append(event) }
            let first = try await Self.export(harness, client, "format=jsonl")
            let rows = try first.body.split(separator: "\n").map { try WireJSON.decoder.decode(TransactionExportRow.self, from: Data($0.utf8)) }
            #expect(rows.map(\.storeTransactionID) == Self.carried(early).compactMap(\.transactionId))
            #expect(zip(rows, rows.dropFirst()).allSatisfy { $0.entitleSequence < $1.entitleSequence })
            let cursor = try #require(first.next)

            for event in events.dropFirst(events.count / 2) where try await harness.store.append(event) != .duplicate { late.append(event) }
            let second = try await Self.export(harness, client, "format=jsonl&cursor=\(cursor)")
            let more = try second.body.split(separator: "\n").map { try WireJSON.decoder.decode(TransactionExportRow.self, from: Data($0.utf8)) }
            #expect(more.map(\.storeTransactionID) == Self.carried(late).compactMap(\.transactionId))
            #expect(more.allSatisfy { $0.entitleSequence > Int64(cursor) ?? 0 })
            // Nothing new: nothing, and the same cursor.
            let third = try await Self.export(harness, client, "format=jsonl&cursor=\(try #require(second.next))")
            #expect(third.body.isEmpty && third.next == second.next)

            // The CSV: the header, then the same rows, each with as many fields as the header.
            let csv = try await Self.export(harness, client, "")
            let lines = csv.body.split(separator: "\r\n").map(String.init)
            #expect(lines.first == TransactionExportRow.CodingKeys.allCases.map(\.rawValue).joined(separator: ","))
            #expect(lines.count == 1 + rows.count + more.count)
            #expect(lines.first?.hasPrefix("rc_original_app_user_id,rc_last_seen_app_user_id_alias,country,product_identifier,start_time,end_time,store") == true)
        }
    }

    @Test("the columns: a refunded purchase, a free trial, a family member's share, the owner after a restore")
    func columns() async throws {
        try await ServerHarness.run { harness, client in
            for event in AnalyticsLedger.events { _ = try await harness.store.append(event) }
            #expect(try await harness.store.transfer(originalTransactionID: "D", to: "dan-new-phone", at: AnalyticsLedger.at("2026-03-09T00:00:00Z")) == "dan")
            let body = try await Self.export(harness, client, "format=jsonl").body
            let rows = try body.split(separator: "\n").map { try WireJSON.decoder.decode(TransactionExportRow.self, from: Data($0.utf8)) }
            let refund = try #require(rows.last { $0.rcOriginalAppUserID == "carol" && $0.refundedAt != nil })
            #expect(refund.priceInPurchasedCurrency == 0 && refund.purchasePriceInPurchasedCurrency == Decimal(12_990) / 1000)
            #expect(refund.priceInUSD == 0 && refund.purchasedCurrency == "USD" && refund.entitlementIdentifiers == ["family"])
            let trial = try #require(rows.first { $0.rcOriginalAppUserID == "alice" })
            #expect(trial.isTrialPeriod && !trial.isInIntroOfferPeriod && trial.offerType == "INTRODUCTORY_OFFER" && trial.isAutoRenewable)
            #expect(!trial.isSandbox && trial.environment == "Production" && trial.store == "app_store")
            let shared = try #require(rows.first { $0.rcOriginalAppUserID == "erin" })
            #expect(shared.ownershipType == "FAMILY_SHARED")
            let dan = try #require(rows.first { $0.rcOriginalAppUserID == "dan" })
            #expect(dan.rcLastSeenAppUserIDAlias == "dan-new-phone" && dan.originalStoreTransactionID == "D")
        }
    }

    @Test("a cursor or a format that isn't one is refused", arguments: ["cursor=-1", "cursor=abc", "cursor=99999999999999999999", "format=xml"])
    func refused(query: String) async throws {
        try await ServerHarness.run { harness, client in
            let response = try await harness.get(client, "/v1/exports/transactions?\(query)", key: ServerHarness.secretKey, expect: .badRequest)
            #expect(ServerHarness.errorCode(response) == "request.invalid")
        }
    }
}
