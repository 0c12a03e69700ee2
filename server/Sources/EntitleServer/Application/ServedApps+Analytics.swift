import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation

extension ServedApps {
    /// One report over every app: the apps' aggregates added up (amounts stay per currency), each
    /// entitlement named with its app (`com.epilogue.app/plus`) since apps may reuse entitlement names.
    func combinedAnalytics(from: String?, to: String?) async throws(ServiceError) -> AnalyticsReport {
        let (first, last) = try primary.analytics.analyticsRange(from: from, to: to)
        let cells = try await combinedCells(through: last)
        var products: [Product] = []
        var entitlements: [Entitlement] = []
        for service in services {
            let name = { (id: String) in "\(service.bundleID)/\(id)" }
            products += service.catalog.products.map { product in
                var renamed = product
                renamed.entitlementIDs = product.entitlementIDs.map(name)
                return renamed
            }
            entitlements += service.catalog.entitlements.map { entitlement in
                var renamed = entitlement
                renamed.id = name(entitlement.id)
                return renamed
            }
        }
        // A product ID two apps share (unusual) is counted once, by the first app's mapping.
        var seen = Set<String>()
        let unique = products.filter { seen.insert($0.id.rawValue).inserted }
        return AnalyticsReport(cells: cells, catalog: Catalog(products: unique, entitlements: entitlements), from: first, to: last)
    }

    /// The paywall funnels of every app together (amounts stay per currency).
    func combinedFunnels(from: String?, to: String?) async throws(ServiceError) -> FunnelReport {
        let (first, last) = try primary.analytics.analyticsRange(from: from, to: to)
        return FunnelReport(cells: try await combinedCells(through: last), from: first, to: last)
    }

    /// Every app's aggregate cells up to `day`, added up, each brought up to date first.
    private func combinedCells(through day: Int) async throws(ServiceError) -> AnalyticsCells {
        var cells = AnalyticsCells()
        for service in services {
            _ = try await service.analytics.refreshAnalytics()
            do {
                cells.add(try await service.analytics.analytics.analyticsCells(through: day))
            } catch {
                throw ServiceError(error)
            }
        }
        return cells
    }
}
