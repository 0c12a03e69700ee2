import EntitleCore
import EntitleWire
import Foundation

/// `/dashboard/customers`: every customer of the app a filter admits (state, product, storefront,
/// entitlement, first seen, trial, grace, refunded), a page at a time by the list's cursor, and the same
/// list as CSV.
enum CustomersPage {
    static func render(_ page: SubscriberListResponse, filter: SubscriberFilter, catalog: Catalog, fields: [String: String]) -> String {
        func value(_ name: String) -> String { HTML.escape(fields[name] ?? "") }
        func options(_ name: String, _ choices: [(value: String, label: String)]) -> String {
            ([("", "any")] + choices).map { choice in
                "<option value=\"\(HTML.escape(choice.value))\"\(fields[name] == choice.value && !choice.value.isEmpty ? " selected" : "")>\(HTML.escape(choice.label))</option>"
            }.joined()
        }
        let yesNo = [("true", "yes"), ("false", "no")]
        let query = filter.fields.map { "\($0.0)=\(HTML.escape($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""))" }.joined(separator: "&amp;")
        var body = """
            <h1>Customers</h1>
            <form class="inline" method="get" action="/dashboard/customers" data-filters>
            <label>State <select name="state">\(options("state", SubscriptionState.allCases.map { ($0.rawValue, $0.rawValue.replacingOccurrences(of: "_", with: " ")) }))</select></label>
            <label>Product <select name="product">\(options("product", catalog.products.map { ($0.id.rawValue, $0.id.rawValue) }))</select></label>
            <label>Entitlement <select name="entitlement">\(options("entitlement", catalog.entitlements.map { ($0.id, $0.id) }))</select></label>
            <label>Storefront <input name="storefront" value="\(value("storefront"))" size="4" placeholder="USA"></label>
            <label>First seen from <input type="date" name="firstSeenFrom" value="\(value("firstSeenFrom"))"></label>
            <label>before <input type="date" name="firstSeenBefore" value="\(value("firstSeenBefore"))"></label>
            <label>Trial <select name="trial">\(options("trial", yesNo))</select></label>
            <label>Grace <select name="grace">\(options("grace", yesNo))</select></label>
            <label>Refunded <select name="refunded">\(options("refunded", yesNo))</select></label>
            <label>Anomaly <select name="flagged">\(options("flagged", yesNo))</select></label>
            <button type="submit">Filter</button>
            <a href="/dashboard/export/customers.csv\(query.isEmpty ? "" : "?" + query)" data-export>Download CSV (every match)</a></form>
            <section class="panel">
            """
        if page.subscribers.isEmpty {
            body += "<p class=\"muted\" data-empty>No customer matches\(page.nextCursor == nil ? "" : " among the \(page.scanned) read; the next page reads on").</p>"
        } else {
            let rows = page.subscribers.map { row -> [String] in
                [
                    "<a href=\"\(SubscribersPage.link(row.appUserID))\">\(HTML.escape(row.appUserID))</a>",
                    row.firstSeenAt.map(SubscribersPage.time) ?? "–",
                    HTML.escape(row.purchases.map { "\($0.productID): \($0.state)" }.joined(separator: ", ")),
                    HTML.escape(Set(row.purchases.compactMap(\.storefront)).sorted().joined(separator: " ")),
                    HTML.escape(row.activeEntitlements.joined(separator: ", ")),
                    ([row.inTrial ? "trial" : nil, row.inGrace ? "grace" : nil, row.refunded ? "refunded" : nil].compactMap { $0 }
                        + row.anomalies.map { "<strong data-anomaly=\"\(HTML.escape($0))\">\(HTML.escape($0.replacingOccurrences(of: "_", with: " ")))</strong>" })
                        .joined(separator: ", "),
                ]
            }
            body += DashboardLayout.table(
                id: "customers", header: ["Customer", "First seen", "Purchases", "Storefront", "Active entitlements", "Flags"], rows: rows)
        }
        if let next = page.nextCursor {
            body += "<p><a href=\"/dashboard/customers?\(query.isEmpty ? "" : query + "&amp;")cursor=\(HTML.escape(next))\" data-next>Next page</a></p>"
        }
        body += "</section>"
        return DashboardLayout.page(title: "Customers", section: .customers, body: body)
    }
}
