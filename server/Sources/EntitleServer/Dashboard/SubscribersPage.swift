import EntitleCore
import EntitleWire
import Foundation

/// `/dashboard/subscribers`: the recent subscribers, filtered by purchase state and product; search by
/// appUserID (exact or prefix) or originalTransactionId; and a
/// subscriber's entitlements, subscriptions and event timeline with the state changes it caused.
enum SubscribersPage {
    static func searchForm(query: String) -> String {
        """
            <h1>Subscribers</h1>
            <form class="inline" method="get" action="/dashboard/subscribers">
            <input type="search" name="q" value="\(HTML.escape(query))" placeholder="appUserID or originalTransactionId" size="40" autofocus>
            <button type="submit">Search</button></form>
            """ + OrdersPage.form("")
    }

    static func search(query: String, matches: [String], owner: String?) -> String {
        var body = searchForm(query: query)
        if let owner {
            body += "<p>Purchase <code>\(HTML.escape(query))</code> belongs to <a href=\"\(link(owner))\">\(HTML.escape(owner))</a>.</p>"
        }
        if !query.isEmpty {
            if matches.isEmpty && owner == nil {
                body += "<p class=\"muted\">No subscriber or purchase matches.</p>"
            } else if !matches.isEmpty {
                body += "<section class=\"panel\"><ul data-results=\"subscribers\">"
                body += matches.map { "<li><a href=\"\(link($0))\">\(HTML.escape($0))</a></li>" }.joined()
                body += "</ul></section>"
            }
        }
        return DashboardLayout.page(title: "Subscribers", section: .subscribers, body: body)
    }

    /// The recent subscribers a filter admits, latest first, under the search form.
    static func list(
        _ listed: [SubscriberListing], state: String?, product: String?, products: [String], showApp: Bool, limit: Int
    ) -> String {
        let stateOptions = ["<option value=\"\">any state</option>"] + SubscriptionState.allCases.map {
            "<option value=\"\($0.rawValue)\"\($0.rawValue == state ? " selected" : "")>\($0.rawValue.replacingOccurrences(of: "_", with: " "))</option>"
        }
        let productOptions = ["<option value=\"\">any product</option>"] + products.map {
            "<option value=\"\(HTML.escape($0))\"\($0 == product ? " selected" : "")>\(HTML.escape($0))</option>"
        }
        let filtered = !(state ?? "").isEmpty || !(product ?? "").isEmpty
        var body = searchForm(query: "") + """
            <section class="panel"><h2>Recent subscribers</h2>
            <form class="inline" method="get" action="/dashboard/subscribers" data-filters>
            <label>With a purchase <select name="state">\(stateOptions.joined())</select></label>
            <label>of <select name="product">\(productOptions.joined())</select></label>
            <button type="submit">Filter</button>
            <span class="muted">the latest \(limit) by their latest event\(filtered ? ", among the 2,000 latest" : "")</span></form>
            """
        if listed.isEmpty {
            body += "<p class=\"muted\" data-empty>No subscriber matches.</p>"
        } else {
            let rows = listed.map { row -> [String] in
                let id = row.appUserID.rawValue
                let name = showApp ? HTML.escape(id) : "<a href=\"\(link(id))\">\(HTML.escape(id))</a>"
                return [name] + (showApp ? [HTML.escape(row.app.rawValue)] : []) + [
                    time(row.updatedAt),
                    HTML.escape(row.purchases.map { "\($0.productID.rawValue): \($0.state.rawValue)" }.joined(separator: ", ")),
                    HTML.escape(row.activeEntitlements.joined(separator: ", ")),
                ]
            }
            body += DashboardLayout.table(
                id: "recent-subscribers", header: ["Subscriber"] + (showApp ? ["App"] : []) + ["Latest event", "Purchases", "Active entitlements"],
                rows: rows)
        }
        body += "</section>"
        return DashboardLayout.page(title: "Subscribers", section: .subscribers, body: body)
    }

    static func detail(_ subscriber: SubscriberResponse, timeline: [StateChange], supportTools: Bool = false, grantable: [String] = []) -> String {
        var body = "<h1>\(HTML.escape(subscriber.appUserID))</h1><p class=\"muted\">At \(time(subscriber.serverTime)).</p>"
        if !grantable.isEmpty {
            // A grant, as `POST /v1/subscribers/{appUserID}/grants` makes it: a ledger event, in the audit log with who.
            let options = grantable.map { "<option value=\"\(HTML.escape($0))\">\(HTML.escape($0))</option>" }.joined()
            body += """
                <section class="panel" data-grant><h2>Grant</h2>
                <form class="inline" method="post" action="\(link(subscriber.appUserID))/grants">
                <select name="entitlement" aria-label="entitlement">\(options)</select> for
                <input type="number" name="days" min="1" max="366" value="7" aria-label="days"> days,
                <input name="reason" placeholder="reason, e.g. goodwill: app crashed" size="32" maxlength="200" required>
                <button type="submit">Grant</button></form></section>
                """
        }
        if supportTools {
            let base = link(subscriber.appUserID)
            body += """
                <section class="panel" data-support><h2>Support</h2>
                <form class="inline" method="post" action="\(base)/refresh"><button type="submit">Refresh from the App Store</button></form>
                <form class="inline" method="post" action="\(base)/extend">
                <input type="number" name="days" min="1" max="90" value="7" aria-label="days"> days,
                <select name="reason"><option value="1">customer satisfaction</option><option value="3">service issue or outage</option>\
                <option value="2">other</option><option value="0">undeclared</option></select>
                <button type="submit">Extend active subscriptions</button></form>
                <p class="muted">Both ask Apple (App Store Server API); what Apple answers lands on the timeline as app_store_server_api.</p>
                </section>
                """
        }
        if !subscriber.anomalies.isEmpty {
            body += "<section class=\"panel\" data-anomalies><h2>Anomalies</h2><p class=\"muted\">Flags grant or take nothing; docs/anomalies.md says what each means.</p>"
            body += DashboardLayout.table(
                id: "anomalies", header: ["Kind", "Since", "Count", "Threshold", "About"],
                rows: subscriber.anomalies.map { flag in
                    ["<span data-anomaly=\"\(HTML.escape(flag.kind))\">\(HTML.escape(flag.kind.replacingOccurrences(of: "_", with: " ")))</span>", time(flag.since),
                     String(flag.count), String(flag.threshold),
                     HTML.escape(flag.originalTransactionID ?? flag.appAccountToken?.uuidString.lowercased() ?? flag.feature ?? "")]
                })
            body += "</section>"
        }
        let entitlements = subscriber.entitlements.map {
            [HTML.escape($0.id), $0.isActive ? "yes" : "no", HTML.escape($0.state.rawValue), HTML.escape($0.source.rawValue), HTML.escape($0.productID ?? ""),
             $0.expiresAt.map(time) ?? "", $0.willRenew ? "yes" : "no"]
        }
        body += "<section class=\"panel\"><h2>Entitlements</h2>"
        body += DashboardLayout.table(
            id: "entitlements", header: ["Entitlement", "Active", "State", "Source", "Product", "Expires", "Renews"], rows: entitlements)
        body += "</section>"
        let chains = (subscriber.subscriptions + subscriber.purchases).map {
            [HTML.escape($0.originalTransactionID), HTML.escape($0.productID), HTML.escape($0.state.rawValue), $0.purchasedAt.map(time) ?? "",
             $0.expiresAt.map(time) ?? "", $0.isFamilyShared ? "yes" : "no", $0.commitment.map(commitment) ?? ""]
        }
        body += "<section class=\"panel\"><h2>Purchases</h2>"
        body += DashboardLayout.table(
            id: "purchases", header: ["Original transaction", "Product", "State", "Purchased", "Expires", "Family-shared", "Commitment"], rows: chains)
        body += "</section>"
        if !subscriber.items.isEmpty {
            let items = subscriber.items.map {
                [HTML.escape($0.limit), HTML.escape($0.id), HTML.escape($0.name ?? ""), time($0.addedAt), $0.isPaused ? "paused" : "active"]
            }
            body += "<section class=\"panel\"><h2>Devices and other registered items</h2>"
            body += "<p class=\"muted\">Counted against the plan's limits; when fewer are allowed than registered, the newest are paused.</p>"
            body += DashboardLayout.table(
                id: "items", header: ["Limit", "Item", "Name", "Registered", "Status"], rows: items,
                rowClasses: subscriber.items.map { $0.isPaused ? "changed" : nil })
            body += "</section>"
        }
        let rows = timeline.map { change in
            [time(change.at), HTML.escape(change.source), HTML.escape(change.kind), HTML.escape(change.transactionID ?? ""),
             HTML.escape(change.states.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", "))]
        }
        body += "<section class=\"panel\"><h2>Timeline</h2><p class=\"muted\">Events in Apple's order; highlighted rows changed an entitlement's state.</p>"
        body += DashboardLayout.table(
            id: "timeline", header: ["When", "Source", "Event", "Transaction", "Entitlements after"], rows: rows,
            rowClasses: timeline.map { $0.changed ? "changed" : nil })
        body += "</section>"
        return DashboardLayout.page(title: subscriber.appUserID, section: .subscribers, body: body)
    }

    /// A commitment as the Purchases table shows it: "billed monthly, 3 of 12, ends …, renews".
    static func commitment(_ commitment: CommitmentInfo) -> String {
        "billed monthly, \(commitment.billingPeriod) of \(commitment.totalBillingPeriods), ends \(time(commitment.endsAt)), \(commitment.renews ? "renews" : "won't renew")"
    }

    static func link(_ appUserID: String) -> String {
        "/dashboard/subscribers/" + (appUserID.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? "")
    }

    static func time(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
