import EntitleWire
import Hummingbird

/// `GET /v1/offerings`: the app's products as a paywall shows them, from its catalog.
struct OfferingsController {
    func addRoutes(to group: RouterGroup<EntitleRequestContext>) {
        group.get { _, context -> OfferingsResponse in
            OfferingsBuilder.response(try context.services.catalog)
        }
    }
}
