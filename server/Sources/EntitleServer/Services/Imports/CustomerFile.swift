import EntitleWire
import Foundation

/// A file of customers to import (docs/import.md): the rows to send, the rows that can't be imported
/// (with their line and why), and those left out on purpose (another store's).
struct CustomerFile: Sendable {
    enum Format: String, CaseIterable {
        /// `app_user_id` and `transaction_id` (or `original_transaction_id`) columns, a header first; or a
        /// `receipt` column (an app receipt, base64) for rows without a transaction ID.
        case csv
        /// RevenueCat's Transactions export: `rc_original_app_user_id`, `rc_last_seen_app_user_id_alias`,
        /// `store`, `store_transaction_id`, `original_store_transaction_id`, … App Store rows only, one per
        /// purchase, each under the app's own ID for the customer (the last seen alias, unless it is
        /// RevenueCat's anonymous one).
        case revenuecat
    }

    /// What begins the IDs RevenueCat makes for users the app hasn't logged in.
    static let revenueCatAnonymousPrefix = "$RCAnonymousID:"

    struct Row: Equatable {
        var line: Int
        var customer: ImportCustomer
    }

    var rows: [Row] = []
    /// Rows that can't be imported: line, reason.
    var problems: [(line: Int, message: String)] = []
    /// Rows of other stores, by store.
    var skipped: [String: Int] = [:]

    /// The file's rows, or a problem with the whole file (no header, a missing column).
    init(text: String, format: Format) throws(ServiceError) {
        let records = CSVReader.records(text)
        guard let header = records.first else { throw ServiceError(.invalidRequest, "the file is empty: it needs a header row") }
        let columns = Dictionary(header.fields.enumerated().map { ($1.trimmingCharacters(in: .whitespaces).lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        func column(_ names: String...) -> Int? { names.lazy.compactMap { columns[$0] }.first }
        let user: Int
        let transaction: [Int]
        var store: Int?
        var receipt: Int?
        var lastSeen: Int?
        switch format {
        case .csv:
            guard let found = column("app_user_id", "appuserid") else { throw ServiceError(.invalidRequest, "no app_user_id column in the header") }
            transaction = [column("transaction_id", "transactionid"), column("original_transaction_id", "originaltransactionid")].compactMap { $0 }
            receipt = column("receipt", "app_receipt")
            guard !transaction.isEmpty || receipt != nil else { throw ServiceError(.invalidRequest, "no transaction_id, original_transaction_id or receipt column in the header") }
            user = found
        case .revenuecat:
            guard let found = column("rc_original_app_user_id") else { throw ServiceError(.invalidRequest, "no rc_original_app_user_id column: not a RevenueCat transactions export") }
            transaction = [column("original_store_transaction_id"), column("store_transaction_id")].compactMap { $0 }
            guard !transaction.isEmpty else { throw ServiceError(.invalidRequest, "no store_transaction_id or original_store_transaction_id column") }
            guard let storeColumn = column("store") else { throw ServiceError(.invalidRequest, "no store column") }
            user = found
            store = storeColumn
            lastSeen = column("rc_last_seen_app_user_id_alias")
        }
        var seen: Set<ImportCustomer> = []
        for record in records.dropFirst() {
            func field(_ index: Int) -> String {
                index < record.fields.count ? record.fields[index].trimmingCharacters(in: .whitespaces) : ""
            }
            guard record.fields.count == header.fields.count else {
                problems.append((record.line, "\(record.fields.count) fields where the header has \(header.fields.count)"))
                continue
            }
            if let store, field(store) != "app_store" {
                skipped[field(store).isEmpty ? "(none)" : field(store), default: 0] += 1
                continue
            }
            // RevenueCat's first ID of the customer is often its own anonymous one; the app then logged them
            // in as its own ID, the last one seen: the one it will use with Entitle.
            let alias = lastSeen.map(field) ?? ""
            let appUserID = alias.isEmpty || alias.hasPrefix(Self.revenueCatAnonymousPrefix) ? field(user) : alias
            guard !appUserID.isEmpty else {
                problems.append((record.line, "no app user ID"))
                continue
            }
            guard let id = transaction.lazy.map(field).first(where: { !$0.isEmpty }) else {
                if let receipt, !field(receipt).isEmpty {
                    // Read by the server (its transaction IDs), which reports a receipt it can't read.
                    let customer = ImportCustomer(appUserID: appUserID, receipt: field(receipt))
                    if seen.insert(customer).inserted { rows.append(Row(line: record.line, customer: customer)) }
                } else {
                    problems.append((record.line, receipt == nil ? "no transaction ID" : "no transaction ID or receipt"))
                }
                continue
            }
            guard id.utf8.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter || $0 == "-" || $0 == "_" || $0 == ".") }) else {
                problems.append((record.line, "\(id.prefix(70)) is not an App Store transaction ID"))
                continue
            }
            let customer = ImportCustomer(appUserID: appUserID, transactionID: id)
            // A RevenueCat export has a row per transaction: one request per purchase is enough.
            if seen.insert(customer).inserted { rows.append(Row(line: record.line, customer: customer)) }
        }
    }
}
