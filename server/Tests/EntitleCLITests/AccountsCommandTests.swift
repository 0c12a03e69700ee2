import EntitleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("entitle accounts")
struct AccountsCommandTests {
    /// Opens `link` on the server and accepts it with `password`: the session cookie, or `nil`.
    static func accept(_ link: String, password: String) async throws -> String? {
        let url = try #require(URL(string: link))
        let token = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "token" }?.value)
        var request = URLRequest(url: try #require(URL(string: "/dashboard/invitation", relativeTo: url)))
        request.httpMethod = "POST"
        request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
        request.setValue("same-origin", forHTTPHeaderField: "Sec-Fetch-Site")
        request.httpBody = Data("token=\(token)&password=\(password.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")".utf8)
        let (_, response) = try await TestHTTP.answer(for: request)
        return (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Set-Cookie")?.split(separator: ";").first.map(String.init)
    }

    @Test("invite prints a link that works once against the served dashboard; list, role and disable act on the people; the last owner stays")
    func lifecycle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-accounts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite:\(folder.appendingPathComponent("entitle.sqlite").path)"
        let port = TestPorts.random()
        let base = "http://127.0.0.1:\(port)"
        func invite(_ email: String, _ role: String) async throws -> String {
            let invited = try await CommandRunner.entitle.run(["accounts", "invite", "--database", database, "--role", role, "--url", base, email])
            #expect(invited.status == 0, "\(invited.standardError)")
            #expect(invited.standardOutput.contains("invited \(email.lowercased()) as \(role)"))
            return try #require(invited.standardOutput.split(separator: "\n").last.map(String.init))
        }
        let ownerLink = try await invite("Owner@Example.com", "owner")
        #expect(ownerLink.hasPrefix("\(base)/dashboard/invitation?token=inv_"))
        let agentLink = try await invite("agent@example.com", "support")

        let process = try CommandRunner.entitle.start(
            ["serve", "--port", "\(port)", "--database", database, "--catalog", Fixtures.examples.appendingPathComponent("Epilogue").path], in: folder)
        defer { process.signal(SIGKILL) }
        var ready = false
        for _ in 0..<300 where !ready {
            if let (_, response) = try? await TestHTTP.answer(from: URL(string: "\(base)/ready")!) { ready = (response as? HTTPURLResponse)?.statusCode == 200 }
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(try await Self.accept(ownerLink, password: "the owner's long password") != nil)
        #expect(try await Self.accept(ownerLink, password: "the owner's long password") == nil, "the link works once")
        #expect(try await Self.accept(agentLink, password: "the agent's long password") != nil)
        await process.stop()

        let listed = try await CommandRunner.entitle.run(["accounts", "list", "--database", database])
        #expect(listed.status == 0)
        #expect(listed.standardOutput.contains("owner@example.com  owner"))
        #expect(listed.standardOutput.contains("agent@example.com  support"))
        #expect(!listed.standardOutput.contains("$scrypt$"), "never a hash")

        let lowered = try await CommandRunner.entitle.run(["accounts", "role", "--database", database, "agent@example.com", "viewer"])
        #expect(lowered.status == 0 && lowered.standardOutput.contains("agent@example.com: support → viewer"))
        let last = try await CommandRunner.entitle.run(["accounts", "disable", "--database", database, "owner@example.com"])
        #expect(last.status != 0 && last.standardError.contains("last active owner"))
        #expect(try await CommandRunner.entitle.run(["accounts", "disable", "--database", database, "agent@example.com"]).status == 0)
        #expect(try await CommandRunner.entitle.run(["accounts", "list", "--database", database]).standardOutput.contains("agent@example.com  viewer  -  disabled"))
        #expect(try await CommandRunner.entitle.run(["accounts", "disable", "--database", database, "nobody@example.com"]).status == 1)
        #expect(try await CommandRunner.entitle.run(["accounts", "invite", "--database", database, "--role", "boss", "x@example.com"]).status == 64)
        #expect(try await CommandRunner.entitle.run(["accounts", "invite", "--database", database, "--role", "viewer", "not-an-email"]).status != 0)
    }
}
