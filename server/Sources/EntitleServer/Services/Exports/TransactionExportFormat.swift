import EntitleWire
import Foundation

/// How an export writes its rows: CSV (RFC 4180, a header first) or JSON lines (one object a row).
public enum TransactionExportFormat: String, Sendable, CaseIterable {
    case csv
    case jsonl

    /// The format a request names (`csv` when none).
    public init(_ name: String?) throws(ServiceError) {
        guard let format = TransactionExportFormat(rawValue: name ?? "csv") else { throw ServiceError(.invalidRequest, "format is csv or jsonl") }
        self = format
    }

    public var contentType: String {
        switch self {
        case .csv: "text/csv; charset=utf-8"
        case .jsonl: "application/x-ndjson"
        }
    }

    /// What comes before the rows: the CSV's header.
    public var header: String {
        switch self {
        case .csv: TransactionExportRow.CodingKeys.allCases.map(\.rawValue).joined(separator: ",") + "\r\n"
        case .jsonl: ""
        }
    }

    /// `rows` in this format.
    public func text(_ rows: [TransactionExportRow]) throws -> String {
        switch self {
        case .csv: return rows.map(Self.csvLine).joined()
        case .jsonl:
            let encoder = WireJSON.encoder
            var text = ""
            for row in rows { text += String(decoding: try encoder.encode(row), as: UTF8.self) + "\n" }
            return text
        }
    }

    /// A row as CSV, its columns in ``TransactionExportRow/CodingKeys`` order: dates in ISO 8601, amounts
    /// as decimals, booleans `true`/`false`, the entitlements a JSON array, empty for none.
    static func csvLine(_ row: TransactionExportRow) -> String {
        func date(_ value: Date?) -> String { value.map { $0.formatted(.iso8601) } ?? "" }
        func amount(_ value: Decimal?) -> String { value.map { "\($0)" } ?? "" }
        let entitlements = (try? WireJSON.encoder.encode(row.entitlementIdentifiers)).map { String(decoding: $0, as: UTF8.self) } ?? "[]"
        let fields: [String] = [
            row.rcOriginalAppUserID, row.rcLastSeenAppUserIDAlias, row.country ?? "", row.productIdentifier, date(row.startTime), date(row.endTime),
            row.store, String(row.isAutoRenewable), String(row.isTrialPeriod), String(row.isInIntroOfferPeriod), String(row.isSandbox),
            amount(row.priceInUSD), row.storeTransactionID, row.originalStoreTransactionID, date(row.refundedAt), row.purchasedCurrency ?? "",
            amount(row.priceInPurchasedCurrency), amount(row.purchasePriceInPurchasedCurrency), entitlements, row.ownershipType,
            row.offerType ?? "", row.offer ?? "", row.environment, date(row.updatedAt), String(row.entitleSequence),
        ]
        return fields.map(AnalyticsCSV.field).joined(separator: ",") + "\r\n"
    }
}
