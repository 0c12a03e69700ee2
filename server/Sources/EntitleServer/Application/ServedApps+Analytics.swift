import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation

extension ServedApps {
    /// One report over every app: the apps' aggregates added up (amounts stay per currency), each
    /// entitlement named with its app (`com.epilogue.app/plus`) since apps may reuse entitlement names.
    func combinedAnalytics(from: String?, to: String?, environment: String? = nil) async throws(ServiceError) -> AnalyticsReport {
        let (first, last) = try primary.analytics.analyticsRange(from: from, to: to)
        let scope = try combinedScope(environment)
        let cells = try await combinedCells(through: last, scope: scope)
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
        var report = AnalyticsReport(cells: cells, catalog: Catalog(products: unique, entitlements: entitlements), from: first, to: last)
        report.environment = scope
        return report
    }

    /// The paywall funnels of every app together (amounts stay per currency).
    func combinedFunnels(from: String?, to: String?, environment: String? = nil) async throws(ServiceError) -> FunnelReport {
        let (first, last) = try primary.analytics.analyticsRange(from: from, to: to)
        let scope = try combinedScope(environment)
        var report = FunnelReport(cells: try await combinedCells(through: last, scope: scope), from: first, to: last)
        report.environment = scope
        return report
    }

    /// The scope a request names, else real customers' when any app accepts Production.
    private func combinedScope(_ environment: String?) throws(ServiceError) -> AnalyticsScope {
        if environment != nil { return try primary.analytics.scope(environment) }
        return services.contains { $0.analytics.defaultScope == .production } ? .production : .all
    }

    /// Every app's aggregate cells up to `day` that `scope` counts, added up, each brought up to date first.
    private func combinedCells(through day: Int, scope: AnalyticsScope) async throws(ServiceError) -> AnalyticsCells {
        var cells = AnalyticsCells()
        for service in services {
            _ = try await service.analytics.refreshAnalytics()
            cells.add(try await service.analytics.cells(through: day, scope: scope))
        }
        return cells
    }
}
