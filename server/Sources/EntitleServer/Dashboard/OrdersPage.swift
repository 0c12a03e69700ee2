import EntitleWire
import Foundation

/// `/dashboard/orders`: an order ID from a customer's receipt email, looked up with Apple, each
/// purchase linked to the subscriber it belongs to here.
enum OrdersPage {
    static func render(order: String, lookup: OrderResponse?) -> String {
        var body = "<h1>Order look-up</h1>" + form(order)
        if let lookup {
            if !lookup.found {
                body += "<p class=\"muted\">Apple does not know the order <code>\(HTML.escape(lookup.orderID))</code>.</p>"
            } else {
                let rows = lookup.purchases.map { purchase -> [String] in
                    [
                        "<code>\(HTML.escape(purchase.originalTransactionID))</code>", HTML.escape(purchase.productID),
                        purchase.purchasedAt.map { $0.formatted(.iso8601) } ?? "", purchase.revokedAt.map { "refunded \($0.formatted(.iso8601))" } ?? "",
                        purchase.appUserID.map { "<a href=\"\(SubscribersPage.link($0))\">\(HTML.escape($0))</a>" } ?? "<span class=\"muted\">no subscriber yet</span>",
                    ]
                }
                body += "<section class=\"panel\">" + DashboardLayout.table(
                    id: "order", header: ["Original transaction", "Product", "Purchased", "Refund", "Subscriber"], rows: rows) + "</section>"
            }
        }
        return DashboardLayout.page(title: "Order look-up", section: .subscribers, body: body)
    }

    static func form(_ order: String) -> String {
        """
        <form class="inline" method="get" action="/dashboard/orders">
        <input type="search" name="order" value="\(HTML.escape(order))" placeholder="order ID from a receipt email" size="30">
        <button type="submit">Look up order</button></form>
        """
    }
}
