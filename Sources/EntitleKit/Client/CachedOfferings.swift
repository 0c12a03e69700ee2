import EntitleWire

/// The offerings last served, kept on disk with the user they were served to.
struct CachedOfferings: Codable {
    var appUserID: String
    var offerings: OfferingsResponse
}
