import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation

/// The customer list (`GET /v1/subscribers`, the dashboard's Customers page and its CSV): every
/// subscriber a filter admits, in the byte order of their IDs, a page at a time. Each subscriber is
/// resolved by the one resolver every answer uses, so a list's states are the answers' states.
///
/// A page reads at most `scanBudget` projections (a range of the projections' index), so a request
/// costs the same whatever the ledger's size and a filter few match returns short pages with a cursor
/// rather than read the whole ledger; an export walks every page.
public struct CustomerListService: AppService {
    let context: AppContext
    let projections: any ProjectionStore

    /// The most subscribers a page returns, and the default.
    public static let largestPage = 1_000
    public static let defaultPage = 100
    /// How many subscribers a page reads at most, by default.
    public static let defaultScanBudget = 5_000

    /// One page of the customers `filter` admits, after `cursor` (a page's `nextCursor`; `nil`: from the
    /// first).
    public func page(
        _ filter: SubscriberFilter, after cursor: String?, limit: Int = defaultPage, scanBudget: Int = defaultScanBudget
    ) async throws(ServiceError) -> SubscriberListResponse {
        guard (1...Self.largestPage).contains(limit) else {
            throw ServiceError(.invalidRequest, "limit is 1 to \(Self.largestPage)")
        }
        var position = try cursor.map { (text: String) throws(ServiceError) -> AppUserID in try Self.decodeCursor(text) }
        let at = now()
        var listed: [SubscriberSummary] = []
        var scanned = 0
        do {
            while scanned < scanBudget {
                let batch = min(500, scanBudget - scanned)
                let page = try await projections.projections(after: position, limit: batch)
                for (appUserID, facts) in page {
                    scanned += 1
                    position = appUserID
                    let summary = CustomerSummaryBuilder.summary(resolver.resolve(facts, at: at), facts: facts)
                    guard filter.admits(summary) else { continue }
                    listed.append(summary)
                    if listed.count == limit {
                        return SubscriberListResponse(subscribers: listed, nextCursor: Self.encodeCursor(appUserID), scanned: scanned)
                    }
                }
                if page.count < batch {
                    return SubscriberListResponse(subscribers: listed, nextCursor: nil, scanned: scanned)
                }
                if Task.isCancelled { break }
            }
        } catch {
            throw ServiceError(error)
        }
        return SubscriberListResponse(subscribers: listed, nextCursor: position.map(Self.encodeCursor), scanned: scanned)
    }

    /// A cursor: the last subscriber a page read, base64url, so any ID travels in a URL.
    static func encodeCursor(_ id: AppUserID) -> String {
        Base64URL.encode(id.rawValue.utf8)
    }

    static func decodeCursor(_ text: String) throws(ServiceError) -> AppUserID {
        guard text.utf8.count <= 1_024, let bytes = Base64URL.decode(Substring(text).utf8), let id = String(validating: bytes, as: UTF8.self) else {
            throw ServiceError(.invalidRequest, "cursor is not one a page of this list gave")
        }
        return AppUserID(id)
    }
}
