import AppStoreModels
import EntitleAnalytics
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

/// An experiment's results from the aggregates of a seeded population whose true conversion rates are
/// known: the report finds a real difference and its interval holds the true margin; an A/A
/// experiment finds none.
@Suite("ExperimentReport")
struct ExperimentReportTests {
    static let catalog = Fixtures.exampleCatalog("PantryPal")
    static let monthly = "com.pantrypal.premium.monthly"
    static let day: TimeInterval = 86_400

    static func experiment(_ id: String) -> Experiment {
        Experiment(
            id: id, variants: [ExperimentVariant(id: "control", offeringID: "default"), ExperimentVariant(id: "b", offeringID: "monthly-first")],
            state: .running, createdAt: ReferenceTime.start)
    }

    /// `subscribers` people served `experiment` over January, each converting with their variant's
    /// rate (a purchase within ten days, renewed 70% of the time), recorded as the server records them.
    static func report(
        _ experiment: Experiment, subscribers: Int, rates: [String: Double], seed: UInt64, today: Int = AnalyticsCalendar.day(of: ReferenceTime.day(365))
    ) -> ExperimentReport {
        var random = SeededGenerator(seed: seed)
        let apple = AppleFacts(bundleID: "com.pantrypal.app", environment: .production)
        let contributor = AnalyticsContributor(catalog: catalog)
        var cells = AnalyticsCells()
        var eventSeed = 0
        for index in 0..<subscribers {
            let user = AppUserID("subscriber-\(index)")
            let variant = ExperimentAssignment.variant(of: experiment, for: user)!
            let enrolled = ReferenceTime.start.addingTimeInterval(Double.random(in: 0..<(31 * day), using: &random))
            eventSeed += 1
            var events = [LedgerEvent(
                id: LedgerEvents.id(eventSeed), appUserID: user, source: .experiment, idempotencyKey: "experiment:\(experiment.id):\(user)",
                signedDate: enrolled, receivedAt: enrolled,
                payload: .experimentEnrolled(ExperimentEnrolment(
                    experimentID: experiment.id, variantID: variant.id, offeringID: variant.offeringID, at: enrolled, revenueWindowDays: 30)))]
            if Double.random(in: 0..<1, using: &random) < rates[variant.id, default: 0] {
                let bought = enrolled.addingTimeInterval(Double.random(in: 0..<(10 * day), using: &random))
                eventSeed += 1
                events.append(LedgerEvents.appTransaction(eventSeed, appUserID: user, apple.subscription(
                    monthly, original: "O\(index)", id: "O\(index)-1", purchase: bought, expires: bought + 30 * day, price: 4_990)))
                if Double.random(in: 0..<1, using: &random) < 0.7 {
                    eventSeed += 1
                    events.append(LedgerEvents.appTransaction(eventSeed, appUserID: user, apple.subscription(
                        monthly, original: "O\(index)", id: "O\(index)-2", purchase: bought + 30 * day, expires: bought + 60 * day, price: 4_990,
                        reason: .renewal)))
                }
            }
            cells.add(contributor.cells(appUserID: user, events: events))
        }
        return ExperimentReport(experiment: experiment, cells: cells, today: today)
    }

    @Test("a renewal is judged once the first period has ended: minutes after the purchases none is an opportunity; once every first period ended, each is, and the renewed ones count")
    func renewalsJudgedAtPeriodEnd() throws {
        let experiment = Self.experiment("renewals")
        // Purchases within ten days of enrolment over January, first periods of 30 days: all ended by mid-March.
        let early = Self.report(experiment, subscribers: 400, rates: ["control": 0.5, "b": 0.5], seed: 7, today: AnalyticsCalendar.day(of: ReferenceTime.day(1)))
        let late = Self.report(experiment, subscribers: 400, rates: ["control": 0.5, "b": 0.5], seed: 7, today: AnalyticsCalendar.day(of: ReferenceTime.day(75)))
        for (before, after) in zip(early.variants, late.variants) {
            #expect(before.renewalOpportunities == 0 && before.renewals == 0 && before.renewalRate == nil)
            #expect(after.renewalOpportunities == after.paid, "every paid purchase's first period has ended")
            #expect(after.renewals > 0 && after.renewals < after.renewalOpportunities)
            #expect(before.paid == after.paid && before.exposed == after.exposed)
        }
    }

    @Test("B converts 5 points better than A (10% → 15%): the report finds it, and its interval holds the true margin")
    func realDifference() throws {
        let report = Self.report(Self.experiment("paywall-order"), subscribers: 8_000, rates: ["control": 0.10, "b": 0.15], seed: 52)
        let (control, b) = (report.variants[0], report.variants[1])
        #expect(control.variantID == "control" && b.variantID == "b")
        #expect(control.paidComparison == nil)
        // The hash splits the audience evenly: within 3% of half each.
        #expect(abs(Double(control.exposed) / 8_000 - 0.5) < 0.03)
        #expect(control.exposed + b.exposed == 8_000)
        let paid = try #require(b.paidComparison)
        #expect(paid.test == "two-proportion z-test")
        #expect(paid.lower <= 0.05 && 0.05 <= paid.upper, "95% interval \(paid.lower)…\(paid.upper)")
        #expect(paid.lower > 0, "the interval excludes no difference")
        #expect(paid.pValue < 0.001)
        #expect(paid.chanceToBeatControl > 0.99)
        // A 5-point difference at these rates needs about 680 a variant for 80% power.
        let needed = try #require(paid.sampleNeededPerVariant)
        #expect((400...1_200).contains(needed))
        // Revenue per exposed subscriber: 4.99 × rate within the window (the renewal falls after it).
        let revenue = try #require(b.revenueComparison["USD"])
        #expect(revenue.lower <= 249.5 && 249.5 <= revenue.upper, "\(revenue.lower)…\(revenue.upper) milliunits")
        #expect(revenue.lower > 0)
        // Retention at the first renewal is the same 70% in both.
        let renewal = try #require(b.renewalComparison)
        #expect(renewal.lower < 0 && 0 < renewal.upper)
        #expect(abs((b.renewalRate ?? 0) - 0.7) < 0.06 && abs((control.renewalRate ?? 0) - 0.7) < 0.08)
    }

    @Test("an A/A experiment (both 10%) finds no difference")
    func noDifference() throws {
        let report = Self.report(Self.experiment("a-a"), subscribers: 8_000, rates: ["control": 0.10, "b": 0.10], seed: 7)
        let paid = try #require(report.variants[1].paidComparison)
        #expect(paid.lower < 0 && 0 < paid.upper, "95% interval \(paid.lower)…\(paid.upper)")
        #expect(paid.pValue > 0.05)
        #expect((0.05...0.95).contains(paid.chanceToBeatControl))
    }

    @Test("assignment: the same subscriber always gets the same variant; weights split the buckets; experiments split independently")
    func assignment() throws {
        let experiment = Self.experiment("order")
        for index in 0..<200 {
            let user = AppUserID("user-\(index)")
            #expect(ExperimentAssignment.variant(of: experiment, for: user) == ExperimentAssignment.variant(of: experiment, for: user))
        }
        var weighted = experiment
        weighted.variants[1].weight = 3
        let users = (0..<8_000).map { AppUserID("user-\($0)") }
        let share = Double(users.filter { ExperimentAssignment.variant(of: weighted, for: $0)?.id == "b" }.count) / 8_000
        #expect(abs(share - 0.75) < 0.02)
        // Another experiment's split doesn't follow this one's: about half of one's B are the other's B.
        let other = Self.experiment("price")
        let both = users.filter { ExperimentAssignment.variant(of: experiment, for: $0)?.id == "b" && ExperimentAssignment.variant(of: other, for: $0)?.id == "b" }
        #expect(abs(Double(both.count) / 8_000 - 0.25) < 0.02)
    }
}
