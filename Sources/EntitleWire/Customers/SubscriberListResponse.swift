import Foundation

/// `GET /v1/subscribers`: a page of the customers a filter admits, in the byte order of their IDs.
///
/// A page reads a bounded number of subscribers (`scanned`), so a filter few match may return fewer than
/// asked, even none, with a `nextCursor`: the list is complete only when `nextCursor` is absent.
public struct SubscriberListResponse: Codable, Hashable, Sendable {
    public var subscribers: [SubscriberSummary]
    /// Where the next page starts (pass it as `cursor`); absent on the last page.
    public var nextCursor: String?
    /// How many subscribers this page read to find these.
    public var scanned: Int

    public init(subscribers: [SubscriberSummary], nextCursor: String?, scanned: Int) {
        self.subscribers = subscribers
        self.nextCursor = nextCursor
        self.scanned = scanned
    }
}
