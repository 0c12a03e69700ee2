import EntitleStorage
import HTTPTypes
import Testing

@testable import EntitleServer

/// Which role each dashboard route needs: the API's scope rule on the same shape, owners for the people.
@Suite("DashboardRoleRule")
struct DashboardRoleRuleTests {
    @Test("reads need viewer, a subscriber's changes support, other changes admin, the accounts owner", arguments: [
        (HTTPRequest.Method.get, "/dashboard", DashboardRole.viewer), (.get, "/dashboard/keys", .viewer), (.get, "/dashboard/export/{file}", .viewer),
        (.post, "/dashboard/subscribers/{appUserID}/refresh", .support), (.post, "/dashboard/subscribers/{appUserID}/extend", .support),
        (.post, "/dashboard/keys", .admin), (.post, "/dashboard/keys/{keyID}/revoke", .admin), (.post, "/dashboard/webhooks/{endpointID}/{action}", .admin),
        (.post, "/dashboard/experiments/{experimentID}/{action}", .admin), (.get, "/dashboard/accounts", .owner),
        (.post, "/dashboard/accounts/invitations", .owner), (.post, "/dashboard/accounts/{accountID}/role", .owner),
    ])
    func required(method: HTTPRequest.Method, route: String, role: DashboardRole) {
        #expect(DashboardRoleRule.required(method: method, route: route) == role)
        for other in DashboardRole.allCases {
            #expect(DashboardRoleRule.allows(other, method: method, route: route) == (other >= role))
        }
    }
}
