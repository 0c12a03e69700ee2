import EntitleCore
@testable import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension EntitleTests {
    @Test("seed 004 without a backend: the first launch's answer lists the reminders to schedule, and a cached answer counts the trial's days down as the server does")
    func remindersAndCountdown() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let entitle = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-1")
            let started = try await entitle.recordFirstLaunch()
            let kinds = started.reminders.map(\.kind)
            #expect(kinds == [.appTrialEnding] + Array(repeating: .appTrialGrace, count: 6))
            #expect(started.reminders.first?.dueAt == server.clock.now.addingTimeInterval(27 * 86_400))
            #expect(started.reminders.first?.daysLeft == 3)
            #expect(started.appTrial.daysLeft(at: server.clock.now) == 30)

            // Five and a half days on, offline: the cached answer's countdown equals what the server says then.
            server.clock.set(server.clock.now.addingTimeInterval(5.5 * 86_400))
            let offline = try await Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-1")
                .customerInfo(fetchPolicy: .fetchCurrent)
            #expect(offline.source == .cache)
            let online = try await entitle.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(offline.appTrial.daysLeft(at: server.clock.now) == 25)
            #expect(online.response.appTrial.daysLeft == 25)
            // Reminders already due are left out of a newer answer.
            #expect(online.reminders.count == started.reminders.count)
            server.clock.set(server.clock.now.addingTimeInterval(27 * 86_400))
            let later = try await entitle.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(later.reminders.allSatisfy { $0.kind == .appTrialGrace && $0.dueAt > server.clock.now })
            #expect(later.appTrial.phase == .grace && later.appTrial.daysLeft(at: server.clock.now) == 5)
        }
    }
}
