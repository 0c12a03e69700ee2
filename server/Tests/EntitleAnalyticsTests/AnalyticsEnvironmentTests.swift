import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

@Suite("AnalyticsEnvironment")
struct AnalyticsEnvironmentTests {
    static let contributor = AnalyticsContributor(catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
    static let start = AnalyticsLedger.at("2026-01-05T00:00:00Z")

    static func bought(_ seed: Int, _ environment: Environment, user: AppUserID = "u", days: Double = 0) -> LedgerEvent {
        let purchase = start.addingTimeInterval(days * 86_400)
        let transaction = AppleFacts(environment: environment).subscription(
            AnalyticsLedger.individual, original: "O\(seed)", id: "T\(seed)", purchase: purchase, expires: purchase.addingTimeInterval(30 * 86_400))
        return LedgerEvents.appTransaction(seed, appUserID: user, transaction)
    }

    @Test("a subscriber is a tester only when every transaction came from a test environment", arguments: [
        ([Environment.sandbox], AnalyticsEnvironment.sandbox),
        ([.xcode, .localTesting], .sandbox),
        ([.production], .production),
        ([.sandbox, .production], .production),
        ([Environment(rawValue: "Staging")], .production),
        ([], .production),
    ])
    func placement(environments: [Environment], expected: AnalyticsEnvironment) {
        #expect(AnalyticsEnvironment(transactionEnvironments: environments.map { Optional($0) }) == expected)
        let events = environments.enumerated().map { Self.bought($0.offset + 1, $0.element, days: Double($0.offset) * 40) }
        let cells = Self.contributor.cells(appUserID: "u", events: events)
        #expect(cells.keys.allSatisfy { $0.environment == expected })
        #expect(cells.isEmpty == environments.isEmpty)
    }

    @Test("a report's scope counts one environment's cells, or both added together, each key as production's")
    func scoped() {
        let tester = Self.contributor.cells(appUserID: "t", events: [Self.bought(1, .sandbox, user: "t")])
        let customer = Self.contributor.cells(appUserID: "c", events: [Self.bought(2, .production, user: "c")])
        var both = tester
        both.add(customer)
        let revenue = AnalyticsKey(day: AnalyticsCalendar.day(of: Self.start), metric: .revenue, product: AnalyticsLedger.individual, currency: "USD")
        #expect(both.scoped(to: .production) == customer)
        #expect(both.scoped(to: .production)[revenue] == 7_990)
        #expect(both.scoped(to: .sandbox)[revenue] == 7_990)
        #expect(both.scoped(to: .all)[revenue] == 15_980)
        #expect(both.scoped(to: .sandbox).keys.allSatisfy { $0.environment == .production })
        #expect(both.scoped(to: .all).count == customer.count)
    }

    @Test("a tester who buys for real moves every cell to production: the aggregates' difference takes them out of sandbox")
    func testerBuysForReal() {
        let before = Self.contributor.cells(appUserID: "u", events: [Self.bought(1, .sandbox)])
        let after = Self.contributor.cells(appUserID: "u", events: [Self.bought(1, .sandbox), Self.bought(2, .production, days: 40)])
        var aggregates = before
        aggregates.add(after.difference(from: before))
        #expect(aggregates == after)
        #expect(aggregates.keys.allSatisfy { $0.environment == .production })
    }

    @Test("stored metric names: production's as before, a tester's prefixed, unknown ones refused")
    func storedNames() {
        for metric in AnalyticsMetric.allCases {
            for environment in AnalyticsEnvironment.allCases {
                let key = AnalyticsKey(day: 1, metric: metric, environment: environment)
                let parsed = AnalyticsKey.parseStoredMetric(key.storedMetric)
                #expect(parsed?.metric == metric && parsed?.environment == environment)
            }
            #expect(AnalyticsKey(day: 1, metric: metric).storedMetric == metric.rawValue)
        }
        for name in ["", "sandbox:", "sandbox:nope", "production:revenue", "Sandbox:revenue", "sandbox:sandbox:revenue"] {
            #expect(AnalyticsKey.parseStoredMetric(name) == nil, "\(name)")
        }
    }

    @Test("a key encoded before environments existed decodes as production's")
    func decodesEarlierKeys() throws {
        let earlier = #"{"day":3,"metric":"revenue","product":"p","currency":"USD","cohort":""}"#
        let key = try JSONDecoder().decode(AnalyticsKey.self, from: Data(earlier.utf8))
        #expect(key == AnalyticsKey(day: 3, metric: .revenue, product: "p", currency: "USD"))
        let sandbox = AnalyticsKey(day: 3, metric: .revenue, environment: .sandbox)
        #expect(try JSONDecoder().decode(AnalyticsKey.self, from: JSONEncoder().encode(sandbox)) == sandbox)
    }
}
