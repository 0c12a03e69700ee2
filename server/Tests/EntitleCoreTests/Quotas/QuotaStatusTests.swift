import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@Suite("QuotaStatus")
struct QuotaStatusTests {
    static func at(_ text: String) -> Date { ReferenceTime.instant(text) }

    /// A conversation on Jan 31 at 20:00 UTC is in January in UTC and Los Angeles, in February in Tokyo.
    @Test("a calendar month follows the subscriber's time zone across the month boundary", arguments: [
        ("UTC", 0, "2026-03-01T00:00:00Z"),
        ("Asia/Tokyo", 1, "2026-02-28T15:00:00Z"),
        ("America/Los_Angeles", 0, "2026-03-01T08:00:00Z"),
    ])
    func monthBoundary(zone: String, usedInFebruary: Int, resetsAt: String) throws {
        let records = [UsageRecord(feature: "conversations", at: Self.at("2026-01-31T20:00:00Z"))]
        let status = QuotaStatus.evaluate(
            feature: "conversations", window: .calendarMonth, allowance: .limited(2), records: records,
            timeZone: try #require(TimeZone(identifier: zone)), now: Self.at("2026-02-01T09:00:00Z"))
        #expect(status.used == usedInFebruary)
        #expect(status.remaining == 2 - usedInFebruary)
        #expect(status.resetsAt == Self.at(resetsAt))
    }

    @Test("the count resets at the boundary in each time zone", arguments: ["UTC", "Asia/Tokyo"])
    func resets(zone: String) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let records = [
            UsageRecord(feature: "conversations", at: Self.at("2026-01-10T12:00:00Z")),
            UsageRecord(feature: "conversations", at: Self.at("2026-01-20T12:00:00Z")),
        ]
        let january = QuotaStatus.evaluate(feature: "conversations", window: .calendarMonth, allowance: .limited(2), records: records, timeZone: timeZone, now: Self.at("2026-01-25T12:00:00Z"))
        #expect(january.remaining == 0)
        let reset = try #require(january.resetsAt)
        let february = QuotaStatus.evaluate(feature: "conversations", window: .calendarMonth, allowance: .limited(2), records: records, timeZone: timeZone, now: reset)
        #expect(february.used == 0)
        #expect(february.remaining == 2)
        let justBefore = QuotaStatus.evaluate(feature: "conversations", window: .calendarMonth, allowance: .limited(2), records: records, timeZone: timeZone, now: reset.addingTimeInterval(-1))
        #expect(justBefore.used == 2)
    }

    @Test("a rolling window counts the last 30 days and frees up as the oldest use leaves it")
    func rolling() {
        let records = [
            UsageRecord(feature: "shares", at: Self.at("2026-01-01T00:00:00Z")),
            UsageRecord(feature: "shares", amount: 2, at: Self.at("2026-01-20T00:00:00Z")),
        ]
        let status = QuotaStatus.evaluate(feature: "shares", window: .rolling(ISODuration(days: 30)), allowance: .limited(3), records: records, timeZone: .gmt, now: Self.at("2026-01-25T00:00:00Z"))
        #expect(status.used == 3)
        #expect(status.resetsAt == Self.at("2026-01-31T00:00:00Z"))
        let later = QuotaStatus.evaluate(feature: "shares", window: .rolling(ISODuration(days: 30)), allowance: .limited(3), records: records, timeZone: .gmt, now: Self.at("2026-01-31T00:00:00Z"))
        #expect(later.used == 2)
    }

    @Test("a calendar week is an ISO week starting Monday in the subscriber's time zone")
    func week() throws {
        // 2026-01-11 is a Sunday.
        let records = [UsageRecord(feature: "exports", at: Self.at("2026-01-11T23:30:00Z"))]
        let utc = QuotaStatus.evaluate(feature: "exports", window: .calendarWeek, allowance: .limited(1), records: records, timeZone: .gmt, now: Self.at("2026-01-12T01:00:00Z"))
        #expect(utc.used == 0)
        #expect(utc.resetsAt == Self.at("2026-01-19T00:00:00Z"))
        let berlin = QuotaStatus.evaluate(feature: "exports", window: .calendarWeek, allowance: .limited(1), records: records, timeZone: try #require(TimeZone(identifier: "Europe/Berlin")), now: Self.at("2026-01-12T01:00:00Z"))
        #expect(berlin.used == 1)
    }

    @Test("the same idempotency key counts once; future and other features' records don't count")
    func idempotencyAndScope() {
        let records = [
            UsageRecord(feature: "conversations", at: Self.at("2026-01-10T00:00:00Z"), idempotencyKey: "k1"),
            UsageRecord(feature: "conversations", at: Self.at("2026-01-10T00:00:01Z"), idempotencyKey: "k1"),
            UsageRecord(feature: "conversations", at: Self.at("2026-01-30T00:00:00Z")),
            UsageRecord(feature: "exports", at: Self.at("2026-01-10T00:00:00Z")),
        ]
        let status = QuotaStatus.evaluate(feature: "conversations", window: .calendarMonth, allowance: .unlimited, records: records, timeZone: .gmt, now: Self.at("2026-01-15T00:00:00Z"))
        #expect(status.used == 1)
        #expect(status.remaining == nil)
    }
}
