import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// A provisional grant on the access gate: what the purchase's product grants, on top of what the signed
/// gate allows (EntitleKit's `access(_:)` offline right after a purchase).
@Suite("AccessGate granting")
struct AccessGateGrantingTests {
    static let now = ReferenceTime.instant("2026-03-10T12:00:00Z")

    /// A free subscriber of the loader tests' catalog (free: 2 exports a month) who used both.
    static func freeGate() throws -> (Catalog, AccessGate) {
        let catalog = try CatalogLoaderTests.load()
        var facts = SubscriberFacts(appUserID: "u")
        for index in 0..<2 { facts.usage.append(UsageRecord(feature: "exports", at: now.addingTimeInterval(-Double(index) * 60), idempotencyKey: "e\(index)")) }
        return (catalog, EntitlementResolver(catalog: catalog).resolve(facts, at: now).gate)
    }

    @Test("the product's level on top: its features and limits allowed, each quota's allowance raised and what remains recounted")
    func grants() throws {
        let (catalog, gate) = try Self.freeGate()
        #expect(!gate.decide("exports").isAllowed && !gate.decide("devices").isAllowed && !gate.decide("sync").isAllowed)
        let basic = try #require(catalog.entitlement("basic")).access
        let granted = gate.granting(basic)
        #expect(granted.decide("sync").outcome == .allowed)
        #expect(granted.decide("devices").outcome == .allowed && !granted.decide("devices", usage: 2).isAllowed)
        let exports = granted.decide("exports")
        #expect(exports.outcome == .allowed && exports.quota?.used == 2 && exports.quota?.remaining == 8)
        // Nothing granted: the gate as it was.
        #expect(gate.granting(AccessLevel()) == gate)
        // A lower level never lowers what the gate allows.
        #expect(granted.granting(catalog.free) == granted)
    }

    @Test("only grants still within their hours add their product's level")
    func activeGrantsOnly() throws {
        let (catalog, _) = try Self.freeGate()
        let basic = try #require(catalog.entitlement("basic")).access
        let levels = ["app.basic.monthly": basic]
        let fresh = ProvisionalGrant(productID: "app.basic.monthly", transactionID: "1", verifiedAt: Self.now.addingTimeInterval(-3_600))
        let stale = ProvisionalGrant(productID: "app.basic.monthly", transactionID: "2", verifiedAt: Self.now.addingTimeInterval(-25 * 3_600))
        #expect(ProvisionalGrant.access([fresh], accessByProduct: levels, hours: 24, at: Self.now) == basic)
        #expect(ProvisionalGrant.access([stale], accessByProduct: levels, hours: 24, at: Self.now) == AccessLevel())
        #expect(ProvisionalGrant.access([fresh], accessByProduct: [:], hours: 24, at: Self.now) == AccessLevel())
    }
}
