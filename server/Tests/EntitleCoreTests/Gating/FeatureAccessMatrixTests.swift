import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// Seed 004's "Feature Access Matrix" and "Task 6.2 Test Matrix", cell by cell, as the seed writes them.
@Suite("SubscriberAccess: seed 004 matrices")
struct FeatureAccessMatrixTests {
    typealias Column = ScreenTimeRewardsScenarios.Column

    /// | Feature | Free Trial | Expired (Grace) | Expired (Lockout) | Individual | Family |
    static let featureAccessMatrix: [(row: String, feature: String, cells: [String])] = [
        ("Challenge Creation", "challenges.create", ["✅", "⚠️", "❌", "✅", "✅"]),
        ("Screen Time Tracking", "screentime.track", ["✅", "⚠️", "❌", "✅", "✅"]),
        ("Child Devices", "childDevices", ["5 max", "1 max", "❌", "1 max", "5 max"]),
        ("Analytics", "analytics", ["✅", "⚠️", "❌", "✅", "✅"]),
        ("Analytics (Advanced)", "analytics.advanced", ["✅", "❌", "❌", "❌", "✅"]),
        ("View Historical Data", "history.view", ["✅", "✅", "✅", "✅", "✅"]),
        ("Subscription Management", "subscription.manage", ["✅", "✅", "✅", "✅", "✅"]),
    ]

    struct Cell: Sendable, CustomTestStringConvertible {
        var row: String
        var feature: String
        var column: Column
        var expected: String
        var testDescription: String { "\(row) × \(column.rawValue) = \(expected)" }
    }

    static let featureCells: [Cell] = featureAccessMatrix.flatMap { row in
        zip(Column.allCases, row.cells).map { Cell(row: row.row, feature: row.feature, column: $0, expected: $1) }
    }

    @Test("Feature Access Matrix", arguments: featureCells)
    func featureAccessMatrix(_ cell: Cell) {
        for subscriber in cell.column.subscribers {
            let access = ScreenTimeRewardsScenarios.access(subscriber.facts, at: subscriber.at)
            check(cell.expected, feature: cell.feature, access: access, column: cell.column, label: subscriber.label)
        }
    }

    /// | Feature | Trial | Individual | Family | Expired |
    static let testMatrix: [(row: String, feature: String, usage: Int, cells: [String])] = [
        ("Create Challenge", "challenges.create", 1, ["✅", "✅", "✅", "❌"]),
        ("Pair 1 Child", "childDevices", 1, ["✅", "✅", "✅", "❌"]),
        ("Pair 2+ Children", "childDevices", 2, ["✅", "❌", "✅", "❌"]),
        ("View Analytics", "analytics", 1, ["✅", "✅", "✅", "❌"]),
        ("View History", "history.view", 1, ["✅", "✅", "✅", "✅"]),
        ("Settings Access", "settings.view", 1, ["✅", "✅", "✅", "✅"]),
    ]
    static let testMatrixColumns: [Column] = [.freeTrial, .individual, .family, .expiredLockout]

    struct TestMatrixCell: Sendable, CustomTestStringConvertible {
        var row: String
        var feature: String
        var usage: Int
        var column: Column
        var expected: String
        var testDescription: String { "\(row) × \(column == .expiredLockout ? "Expired" : column.rawValue) = \(expected)" }
    }

    static let testMatrixCells: [TestMatrixCell] = testMatrix.flatMap { row in
        zip(testMatrixColumns, row.cells).map { TestMatrixCell(row: row.row, feature: row.feature, usage: row.usage, column: $0, expected: $1) }
    }

    @Test("Task 6.2 Test Matrix; every ❌ names a paywall", arguments: testMatrixCells)
    func testMatrix(_ cell: TestMatrixCell) {
        for subscriber in cell.column.subscribers {
            let decision = ScreenTimeRewardsScenarios.access(subscriber.facts, at: subscriber.at).access(cell.feature, usage: cell.usage)
            switch cell.expected {
            case "✅": #expect(decision.outcome == .allowed, "\(subscriber.label)")
            default:
                #expect(decision.outcome == .denied, "\(subscriber.label)")
                #expect(decision.paywall != nil, "\(subscriber.label): a denial must lead to a paywall")
            }
        }
    }

    private func check(_ expected: String, feature: String, access: SubscriberAccess, column: Column, label: String) {
        switch expected {
        case "✅":
            #expect(access.access(feature).outcome == .allowed, "\(label)")
        case "⚠️":
            let decision = access.access(feature)
            #expect(decision.outcome == .allowedWithWarning, "\(label)")
            #expect(decision.reason?.code == "app_grace", "\(label)")
        case "❌":
            let decision = access.access(feature)
            #expect(decision.outcome == .denied, "\(label)")
        default:
            // "N max": N is allowed (with a warning in grace), N + 1 is denied with the maximum.
            let maximum = Int(expected.split(separator: " ")[0])!
            let atMaximum = access.access(feature, usage: maximum)
            #expect(atMaximum.outcome == (column == .expiredGrace ? .allowedWithWarning : .allowed), "\(label)")
            let over = access.access(feature, usage: maximum + 1)
            #expect(over.outcome == .denied, "\(label)")
            #expect(over.reason == .limitExceeded(maximum: maximum), "\(label)")
        }
    }
}
