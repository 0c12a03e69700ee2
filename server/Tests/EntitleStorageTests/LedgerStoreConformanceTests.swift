import AppStoreModels
import EntitleCore
@testable import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// One suite, every engine: what any LedgerStore must guarantee.
@Suite("LedgerStore conformance")
struct LedgerStoreConformanceTests {
    static let apple = AppleFacts()
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    /// A year of one subscription as notifications, plus the app's own submission of the first purchase.
    static func history(user: AppUserID, original: String, seedBase: Int) -> [LedgerEvent] {
        var events: [LedgerEvent] = []
        for period in 0..<12 {
            let start = ISODuration(months: period).added(to: ReferenceTime.start)
            let end = ISODuration(months: period + 1).added(to: ReferenceTime.start)
            let transaction = apple.subscription("com.example.monthly", original: original, id: "\(original)-\(period)", purchase: start, expires: end,
                                                 reason: period == 0 ? .purchase : .renewal)
            events.append(LedgerEvents.notification(seedBase + period, appUserID: user, type: period == 0 ? .subscribed : .didRenew,
                                                    transaction: transaction, renewalInfo: apple.renewal(original: original, product: "com.example.monthly", signed: start)))
        }
        events.append(LedgerEvents.appTransaction(seedBase + 100, appUserID: user,
                                                  apple.subscription("com.example.monthly", original: original, id: "\(original)-0", purchase: ReferenceTime.start,
                                                                     expires: ISODuration(months: 1).added(to: ReferenceTime.start))))
        return events
    }

    @Test("an event is appended once; the same idempotency key again is a duplicate", arguments: StorageEngine.allCases)
    func idempotent(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let event = Self.history(user: "u1", original: "1000", seedBase: 0)[0]
            guard case .appended(let sequence, let user) = try await store.append(event) else {
                Issue.record("the first append must append")
                return
            }
            #expect(sequence > 0)
            #expect(user == "u1")
            #expect(try await store.append(event) == .duplicate)
            var sameKey = event
            sameKey.id = LedgerEvents.id(999)
            #expect(try await store.append(sameKey) == .duplicate)
            #expect(try await store.eventCount() == 1)
            #expect(try await store.events(appUserID: "u1") == [event])
        }
    }

    @Test("ping answers on a ledger, for every app of the database, as often as asked", arguments: StorageEngine.allCases)
    func ping(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            for _ in 0..<3 { try await store.ping() }
            _ = try await store.append(Self.history(user: "u1", original: "1010", seedBase: 0)[0])
            try await store.ping()
            try await store.forApp("com.other.app").ping()
        }
    }

    @Test("the signed payload is kept apart: a subscriber's history has it, held events too; folds and consumers read events without it", arguments: StorageEngine.allCases)
    func signedPayloadApart(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = Self.history(user: "u1", original: "1000", seedBase: 0).prefix(3)
            var held = LedgerEvents.notification(
                50, appUserID: nil, type: .didRenew,
                transaction: Self.apple.subscription("com.example.monthly", original: "2000", id: "2000-0", purchase: ReferenceTime.start,
                                                expires: ISODuration(months: 1).added(to: ReferenceTime.start)))
            held.rawSignedPayload = "held.header.payload.signature"
            #expect(events.allSatisfy { $0.rawSignedPayload != nil })
            for event in events + [held] { _ = try await store.append(event) }
            #expect(try await store.events(appUserID: "u1") == Array(events))
            #expect(try await store.heldEvents(originalTransactionID: "2000") == [held])
            let consumed = try await store.consumerEvents("auditor", limit: 10, since: .distantPast).events.map(\.event)
            #expect(consumed.map(\.id) == (events + [held]).map(\.id))
            #expect(consumed.allSatisfy { $0.rawSignedPayload == nil })
            let batch = try await store.events(appUserIDs: ["u1"], after: 0).map(\.event)
            #expect(batch.map(\.id) == events.map(\.id))
            #expect(batch.allSatisfy { $0.rawSignedPayload == nil })
            var withoutPayload = Array(events)
            for index in withoutPayload.indices { withoutPayload[index].rawSignedPayload = nil }
            #expect(batch == withoutPayload)
        }
    }

    @Test("a projection another instance changed is read as stored, never from this instance's kept copy; a rebuild too", arguments: StorageEngine.databases)
    func keptProjectionsFollowOtherWriters(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let mine = try #require(store as? SQLLedgerStore)
            // Another server on the same database: the same engine, its own kept projections.
            let other = SQLLedgerStore(engine: mine.engine, writePath: mine.writePath, app: mine.app, projections: ProjectionCache())
            let events = Self.history(user: "u1", original: "1000", seedBase: 0)
            _ = try await mine.append(events[0])
            let first = try #require(try await mine.projection(appUserID: "u1"))
            #expect(try await mine.projection(appUserID: "u1") == first)
            for event in events[1...4] { _ = try await other.append(event) }
            let expected = SubscriberFacts.fold(appUserID: "u1", events: Array(events[0...4]))
            #expect(expected != first)
            #expect(try await mine.projection(appUserID: "u1") == expected)
            #expect(try await mine.projections(appUserIDs: ["u1"])["u1"] == expected)
            // The next append folds onto what is stored, not onto a copy of the first projection.
            _ = try await mine.append(events[5])
            let afterSix = SubscriberFacts.fold(appUserID: "u1", events: Array(events[0...5]))
            #expect(try await other.projection(appUserID: "u1") == afterSix)
            _ = try await other.rebuildProjections()
            #expect(try await mine.projection(appUserID: "u1") == afterSix)
        }
    }

    @Test("two apps share a database, never a row: the same keys, user IDs and purchases stay each app's own", arguments: StorageEngine.allCases)
    func appsApart(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let (one, two) = (root.forApp("com.example.one"), root.forApp("com.example.two"))
            #expect(one.app == "com.example.one")
            let events = Self.history(user: "u1", original: "3000", seedBase: 0)
            for event in events { _ = try await one.append(event) }
            // The same events (same idempotency keys, user, purchase) are new to the other app.
            // Each app's events are its own rows (their ids are new), with the same idempotency keys.
            let copies = events.enumerated().map { index, event in
                var copy = event
                copy.id = LedgerEvents.id(5_000 + index)
                return copy
            }
            var held = copies[0]
            held.id = LedgerEvents.id(4_999)
            held.appUserID = nil
            held.idempotencyKey = "held-elsewhere"
            guard case .appended(_, nil) = try await two.append(held) else {
                Issue.record("the other app holds its own copy: no subscriber of its own owns 3000")
                return
            }
            #expect(try await one.owner(originalTransactionID: "3000") == "u1")
            #expect(try await two.owner(originalTransactionID: "3000") == nil)
            #expect(try await two.heldEventCount() == 1)
            #expect(try await one.heldEventCount() == 0)
            for event in copies { #expect(try await two.append(event) != .duplicate) }
            #expect(try await one.eventCount() == events.count)
            #expect(try await two.eventCount() == events.count + 1)
            #expect(try await one.projection(appUserID: "u1") == SubscriberFacts.fold(appUserID: "u1", events: events))
            #expect(try await two.projection(appUserID: "u1") == SubscriberFacts.fold(appUserID: "u1", events: copies + [held]))
            #expect(try await root.subscriberIDs().isEmpty)
            #expect(try await one.rebuildProjections() == 1)
            #expect(try await root.eventCount() == 0)
        }
    }

    @Test("shuffled and duplicated deliveries end in the in-order projection, and a rebuild equals it", arguments: StorageEngine.allCases)
    func orderIndependent(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = Self.history(user: "u1", original: "1000", seedBase: 0)
            var generator = SeededGenerator(seed: 7)
            var delivered = events.shuffled(using: &generator)
            delivered += events.shuffled(using: &generator).prefix(5)
            for event in delivered { _ = try await store.append(event) }
            let live = try #require(try await store.projection(appUserID: "u1"))
            #expect(live == SubscriberFacts.fold(appUserID: "u1", events: events))
            #expect(try await store.eventCount() == events.count)
            #expect(try await store.rebuildProjections() == 1)
            #expect(try await store.projection(appUserID: "u1") == live)
        }
    }

    @Test("a notification before the app's transaction is held, then applied when the purchase is linked", arguments: StorageEngine.allCases)
    func heldUntilLinked(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = Self.history(user: "u1", original: "2000", seedBase: 0)
            var early = events[0]
            early.appUserID = nil
            #expect(try await store.append(early) == .appended(sequence: 1, appUserID: nil))
            #expect(try await store.heldEvents(originalTransactionID: "2000") == [early])
            #expect(try await store.projection(appUserID: "u1") == nil)
            #expect(try await store.owner(originalTransactionID: "2000") == nil)

            let submitted = events.last!
            guard case .appended(_, "u1") = try await store.append(submitted) else {
                Issue.record("the app's transaction must link the purchase to u1")
                return
            }
            #expect(try await store.owner(originalTransactionID: "2000") == "u1")
            #expect(try await store.heldEvents(originalTransactionID: "2000").isEmpty)
            let facts = try #require(try await store.projection(appUserID: "u1"))
            #expect(facts.purchases["2000"]?.renewalInfo != nil)
            #expect(try await store.events(appUserID: "u1").count == 2)

            // A later notification without a subscriber goes to the purchase's owner.
            var later = events[1]
            later.appUserID = nil
            #expect(try await store.append(later) == .appended(sequence: 3, appUserID: "u1"))
            #expect(try await store.projection(appUserID: "u1")?.purchases["2000"]?.currentTransaction?.transactionId == "2000-1")
        }
    }

    @Test("concurrent appends to one subscriber lose no update; concurrent duplicates append once", arguments: StorageEngine.allCases)
    func concurrentWriters(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = (0..<40).map { index in
                LedgerEvent(id: LedgerEvents.id(index), appUserID: "u1", source: .usage, idempotencyKey: "usage:\(index)",
                            signedDate: Self.day(Double(index) / 10), receivedAt: Self.day(Double(index) / 10),
                            payload: .usage(UsageRecord(feature: "exports", at: Self.day(Double(index) / 10), idempotencyKey: "k\(index)")))
            }
            let outcomes = try await withThrowingTaskGroup(of: AppendOutcome.self) { group in
                for event in events + events.prefix(10) {
                    group.addTask { try await store.append(event) }
                }
                return try await group.reduce(into: [AppendOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .duplicate }.count == 10)
            #expect(try await store.projection(appUserID: "u1")?.usage.count == 40)
            #expect(try await store.eventCount() == 40)
        }
    }

    @Test("an admission check runs inside the append's transaction: 20 concurrent uses of a quota of 5 admit exactly 5", arguments: StorageEngine.allCases)
    func admission(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let uses = (0..<20).map { index in
                LedgerEvent(id: LedgerEvents.id(index), appUserID: "u1", source: .usage, idempotencyKey: "usage:\(index)",
                            signedDate: Self.day(1), receivedAt: Self.day(1),
                            payload: .usage(UsageRecord(feature: "exports", at: Self.day(1), idempotencyKey: "k\(index)")))
            }
            let admitUnderQuota: @Sendable (SubscriberFacts) -> Bool = { $0.usage.count < 5 }
            let outcomes = try await withThrowingTaskGroup(of: AppendOutcome.self) { group in
                for use in uses { group.addTask { try await store.append(use, admitting: admitUnderQuota) } }
                return try await group.reduce(into: [AppendOutcome]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == .refused }.count == 15)
            #expect(try await store.projection(appUserID: "u1")?.usage.count == 5)
            #expect(try await store.eventCount() == 5)
            let admitted = try #require(try await store.events(appUserID: "u1").first)
            #expect(try await store.append(admitted, admitting: { _ in false }) == .duplicate)
        }
    }

    @Test("the latest global event of a source is found, and subscribers' events are not", arguments: StorageEngine.allCases)
    func globalEvents(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            #expect(try await store.latestGlobalEvent(source: .openAccess) == nil)
            let windows = [Self.day(7), Self.day(14)].map { OpenAccessWindow(startsAt: Self.day(0), endsAt: $0) }
            for (index, window) in windows.enumerated() {
                _ = try await store.append(LedgerEvent(
                    id: LedgerEvents.id(800 + index), appUserID: nil, source: .openAccess, idempotencyKey: "open-access:\(index)",
                    signedDate: Self.day(Double(index)), receivedAt: Self.day(Double(index)), payload: .openAccessSet(window)))
            }
            _ = try await store.append(LedgerEvents.admin(810, appUserID: "u1", at: Self.day(3), .openAccessSet(nil)))
            guard case .openAccessSet(let latest)? = try await store.latestGlobalEvent(source: .openAccess)?.payload else {
                Issue.record("no open-access event")
                return
            }
            #expect(latest?.endsAt == Self.day(14))
        }
    }

    @Test("a subscriber's projection and the latest global event are read together", arguments: StorageEngine.allCases)
    func projectionWithGlobalEvent(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let none = try await store.projection(appUserID: "alice", latestGlobalEvent: .openAccess)
            #expect(none.facts == nil && none.global == nil)
            for event in Self.history(user: "alice", original: "4000", seedBase: 0) {
                _ = try await store.append(event)
            }
            let alone = try await store.projection(appUserID: "alice", latestGlobalEvent: .openAccess)
            let stored = try await store.projection(appUserID: "alice")
            #expect(alone.facts != nil)
            #expect(alone.facts == stored)
            #expect(alone.global == nil)
            let window = OpenAccessWindow(startsAt: Self.day(0), endsAt: Self.day(9))
            _ = try await store.append(LedgerEvent(
                id: LedgerEvents.id(820), appUserID: nil, source: .openAccess, idempotencyKey: "open-access:820",
                signedDate: Self.day(1), receivedAt: Self.day(1), payload: .openAccessSet(window)))
            // Read twice: decoded from the row, then the copy kept for its revision.
            for _ in 0..<2 {
                let both = try await store.projection(appUserID: "alice", latestGlobalEvent: .openAccess)
                #expect(both.facts == alone.facts)
                #expect(both.global?.id == LedgerEvents.id(820))
                #expect(both.global?.payload == .openAccessSet(window))
            }
            let unknown = try await store.projection(appUserID: "bob", latestGlobalEvent: .openAccess)
            #expect(unknown.facts == nil && unknown.global?.id == LedgerEvents.id(820))
            // Another app sees neither.
            let other = try await store.forApp("com.example.other").projection(appUserID: "alice", latestGlobalEvent: .openAccess)
            #expect(other.facts == nil && other.global == nil)
        }
    }

    @Test("subscribers are kept apart, listed, and rebuilt", arguments: StorageEngine.allCases)
    func manySubscribers(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            for (index, user) in [AppUserID("alice"), "bob", "carol"].enumerated() {
                for event in Self.history(user: user, original: "\(3000 + index)", seedBase: index * 1000) {
                    _ = try await store.append(event)
                }
            }
            #expect(try await store.subscriberIDs() == ["alice", "bob", "carol"])
            let before = try await store.projection(appUserID: "bob")
            // Read together: each their own, unknown ones left out.
            let projections = try await store.projections(appUserIDs: ["alice", "bob", "dave"])
            #expect(projections.keys.sorted() == ["alice", "bob"])
            #expect(projections["bob"] == before)
            #expect(projections["alice"] == (try await store.projection(appUserID: "alice")))
            #expect(try await store.owners(originalTransactionIDs: ["3000", "3002", "9999"]) == ["3000": "alice", "3002": "carol"])
            #expect(try await store.forApp("com.example.other").owners(originalTransactionIDs: ["3000"]).isEmpty)
            #expect(before?.purchases.keys.sorted() == ["3001"])
            #expect(try await store.rebuildProjections() == 3)
            #expect(try await store.projection(appUserID: "bob") == before)
        }
    }

    @Test("a transfer moves the purchase, its facts and future events to the new owner; a rebuild agrees", arguments: StorageEngine.allCases)
    func transfer(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = Self.history(user: "old-install", original: "5000", seedBase: 0)
            for event in events.prefix(6) + [events.last!] { _ = try await store.append(event) }
            let before = try #require(try await store.projection(appUserID: "old-install")?.purchases["5000"])
            #expect(try await store.transfer(originalTransactionID: "5000", to: "new-install", at: Self.day(200)) == "old-install")
            #expect(try await store.owner(originalTransactionID: "5000") == "new-install")
            #expect(try await store.projection(appUserID: "old-install")?.purchases["5000"] == nil)
            #expect(try await store.projection(appUserID: "new-install")?.purchases["5000"] == before)
            // Later notifications without a subscriber follow the purchase to its new owner.
            var later = events[6]
            later.appUserID = nil
            #expect(try await store.append(later) == .appended(sequence: Int64(events.prefix(6).count + 4), appUserID: "new-install"))
            let live = try await store.projection(appUserID: "new-install")
            #expect(live?.purchases["5000"]?.currentTransaction?.transactionId == "5000-6")
            #expect(try await store.transfer(originalTransactionID: "5000", to: "new-install", at: Self.day(201)) == "new-install")
            #expect(try await store.transfer(originalTransactionID: "unknown", to: "new-install", at: Self.day(201)) == nil)
            _ = try await store.rebuildProjections()
            #expect(try await store.projection(appUserID: "new-install") == live)
            #expect(try await store.projection(appUserID: "old-install")?.purchases.isEmpty == true)
        }
    }

    @Test("renewals racing with transfers of their purchase lose nothing: it ends whole with its last owner, and a rebuild agrees",
          arguments: StorageEngine.allCases)
    func renewalsRacingTransfers(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let events = Self.history(user: "a", original: "6000", seedBase: 0)
            _ = try await store.append(events[0])
            _ = try await store.append(events.last!)
            let renewals = events[1..<12].map { event in
                var ownerless = event
                ownerless.appUserID = nil
                return ownerless
            }
            // Transfers happen now, one after another, while Apple's notifications (signed before) arrive.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for renewal in renewals { group.addTask { _ = try await store.append(renewal) } }
                group.addTask {
                    for index in 0..<10 {
                        _ = try await store.transfer(originalTransactionID: "6000", to: AppUserID(index.isMultiple(of: 2) ? "b" : "a"), at: Self.day(400 + Double(index)))
                    }
                }
                try await group.waitForAll()
            }
            let owner = try #require(try await store.owner(originalTransactionID: "6000"))
            let other = owner == "a" ? "b" : "a"
            let live = try await store.projection(appUserID: owner)
            #expect(live?.purchases["6000"]?.currentTransaction?.transactionId == "6000-11")
            #expect(try await store.projection(appUserID: AppUserID(other))?.purchases["6000"] == nil)
            let history = try await store.events(appUserID: "a") + store.events(appUserID: "b")
            let transferEvents = history.filter { $0.payload.kind.hasPrefix("purchase_transferred/") }
            #expect(try await store.eventCount() == 13 + transferEvents.count)
            #expect(history.count == 13 + transferEvents.count)
            let otherLive = try await store.projection(appUserID: AppUserID(other))
            _ = try await store.rebuildProjections()
            #expect(try await store.projection(appUserID: owner) == live)
            #expect(try await store.projection(appUserID: AppUserID(other)) == otherLive)
        }
    }

    @Test("what was appended is there after reopening", arguments: StorageEngine.allCases)
    func durableAcrossReopen(engine: StorageEngine) async throws {
        let events = Self.history(user: "u1", original: "4000", seedBase: 0)
        try await engine.withReopenedStore { store in
            for event in events { _ = try await store.append(event) }
        } then: { store throws in
            let count = try await store.eventCount()
            let projection = try await store.projection(appUserID: "u1")
            let again = try await store.append(events[0])
            #expect(count == events.count)
            #expect(projection == SubscriberFacts.fold(appUserID: "u1", events: events))
            #expect(again == .duplicate)
        }
    }

    @Test("a job's lease is one holder's until it lapses or completes; the mark of a completed run is kept, per app", arguments: StorageEngine.allCases)
    func jobLeases(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let (store, other) = (root.forApp("com.example.one"), root.forApp("com.example.two"))
            let first = try #require(try await store.acquireJob("reconciliation", holder: "a", now: Self.day(1), until: Self.day(1.1)))
            #expect(first.mark == nil)
            // Another instance can't take it while it is current; the holder renews its own; another app's job is apart.
            #expect(try await store.acquireJob("reconciliation", holder: "b", now: Self.day(1.05), until: Self.day(1.2)) == nil)
            #expect(try await store.acquireJob("reconciliation", holder: "a", now: Self.day(1.05), until: Self.day(1.2)) != nil)
            #expect(try await other.acquireJob("reconciliation", holder: "b", now: Self.day(1.05), until: Self.day(1.2)) != nil)
            try await store.completeJob(first, mark: Self.day(0.9))
            let second = try #require(try await store.acquireJob("reconciliation", holder: "b", now: Self.day(2), until: Self.day(2.1)))
            #expect(second.mark == Self.day(0.9))
            // A holder that crashed: its lease lapses and another takes over, with the last completed mark.
            #expect(try await store.acquireJob("reconciliation", holder: "c", now: Self.day(2.05), until: Self.day(2.2)) == nil)
            let third = try #require(try await store.acquireJob("reconciliation", holder: "c", now: Self.day(2.15), until: Self.day(2.3)))
            #expect(third.mark == Self.day(0.9))
            // A completion by a holder that lost the lease changes nothing.
            try await store.completeJob(second, mark: Self.day(5))
            try await store.completeJob(third, mark: nil)
            #expect(try await store.acquireJob("reconciliation", holder: "d", now: Self.day(3), until: Self.day(3.1))?.mark == Self.day(0.9))
        }
    }

    @Test("a consumer starts with the events received since it was asked for, reads past its cursor in order, and moves it once however many instances try",
          arguments: StorageEngine.allCases)
    func consumers(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let (store, other) = (root.forApp("com.example.one"), root.forApp("com.example.two"))
            let events = Self.history(user: "u1", original: "6000", seedBase: 0)
            _ = try await store.append(events[0])
            let first = try await store.consumerEvents("responder", limit: 10, since: events[0].receivedAt.addingTimeInterval(1))
            #expect(first.events.isEmpty)
            for event in events[1...4] { _ = try await store.append(event) }
            _ = try await other.append(events[5])
            let batch = try await store.consumerEvents("responder", limit: 3, since: .distantPast)
            #expect(batch.position == first.position)
            #expect(batch.events.map(\.event.id) == events[1...3].map(\.id))
            #expect(batch.events.map(\.sequence) == batch.events.map(\.sequence).sorted())
            let last = try #require(batch.events.last?.sequence)
            #expect(try await store.advanceConsumer("responder", from: batch.position, to: last))
            // A second instance that read the same batch can't move the cursor again.
            #expect(try await !store.advanceConsumer("responder", from: batch.position, to: last))
            let rest = try await store.consumerEvents("responder", limit: 10, since: .distantPast)
            #expect(rest.position == last && rest.events.map(\.event.id) == [events[4].id])
            // Another app's consumer of the same name is its own.
            #expect(try await other.consumerEvents("responder", limit: 10, since: .distantFuture).events.isEmpty)
            // A new consumer asked for the recent past gets it.
            #expect(try await store.consumerEvents("late", limit: 10, since: .distantPast).events.count == 5)
            // Subscribers' events after a position, read together: theirs only, this app's only, in order.
            let u2 = Self.history(user: "u2", original: "6001", seedBase: 500)[0]
            _ = try await store.append(u2)
            _ = try await store.append(Self.history(user: "u3", original: "6002", seedBase: 600)[0])
            let after = try await store.events(appUserIDs: ["u1", "u2"], after: batch.events[1].sequence)
            #expect(after.map(\.event.id) == [events[3].id, events[4].id, u2.id])
            #expect(after.map(\.appUserID) == ["u1", "u1", "u2"])
            #expect(after.map(\.sequence) == after.map(\.sequence).sorted())
            #expect(try await store.events(appUserIDs: ["u1"], after: 0).map(\.event.id) == events[0...4].map(\.id))
            #expect(try await store.events(appUserIDs: ["u1"], after: rest.events[0].sequence).isEmpty)
            #expect(try await other.events(appUserIDs: ["u1"], after: 0).map(\.event.id) == [events[5].id])
        }
    }
}
