import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("YearlySavings")
struct YearlySavingsTests {
    @Test("a yearly price against twelve monthly payments, to the nearest whole percent (seed 002's paywall: 49.99 against 4.99 saves 17%)", arguments: [
        ("67.00", "7.99", 30), ("49.99", "4.99", 17), ("39.99", "4.99", 33), ("89.99", "9.99", 25), ("119.88", "9.99", 0), ("0", "1.00", 100),
        ("114.90", "9.99", 4), ("113.88", "9.99", 5),
    ])
    func percent(yearly: String, monthly: String, expected: Int) {
        let yearlyProduct = Product(id: "y", kind: .autoRenewable, price: Price(yearly), period: ISODuration("P1Y"))
        let monthlyProduct = Product(id: "m", kind: .autoRenewable, price: Price(monthly), period: ISODuration("P1M"))
        let savings = YearlySavings(yearly: yearlyProduct, yearlyPrice: Price(yearly)!, monthly: monthlyProduct, monthlyPrice: Price(monthly)!)
        #expect(savings.percent == expected)
    }

    @Test("each example's yearly product is compared with the monthly product of the same entitlement")
    func examples() {
        let epilogue = Fixtures.exampleCatalog("Epilogue").yearlySavings
        #expect(epilogue.map(\.yearlyProductID) == ["com.epilogue.plus.annual"])
        #expect(epilogue.map(\.monthlyProductID) == ["com.epilogue.plus.monthly"])
        #expect(epilogue.map(\.percent) == [30])

        let tiers = Fixtures.exampleCatalog("ScreenTimeRewardsTiers").yearlySavings
        #expect(tiers.map(\.monthlyProductID) == ["screentime.1child.monthly", "screentime.2child.monthly", "screentime.family.monthly"])
        #expect(tiers.map(\.percent) == [25, 28, 30])

        #expect(Fixtures.exampleCatalog("ScreenTimeRewards").yearlySavings.isEmpty)
        // Seed 002's paywall: "Save 17%".
        #expect(Fixtures.exampleCatalog("PantryPal").yearlySavings.map(\.percent) == [17])
    }
}
