import EntitleCore
import EntitleServer
import EntitleTestSupport
import Foundation
import Testing

@Suite("entitle login-token")
struct LogInTokenCommandTests {
    @Test("new-key writes a private key (0600) and prints the public key the entitlements file lists; sign makes a token the server accepts for that user only")
    func newKeyThenSign() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-login-token-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let keyFile = folder.appendingPathComponent("backend.pem").path
        let made = try await CommandRunner.entitle.run(["login-token", "new-key", "--out", keyFile])
        #expect(made.status == 0, "\(made.standardError)")
        let permissions = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let publicPEM = try #require(made.standardOutput.range(of: "-----BEGIN PUBLIC KEY-----").map { String(made.standardOutput[$0.lowerBound...]) })
        let point = try #require(LogInTokenPolicy.point(fromPEM: publicPEM))
        #expect(try await CommandRunner.entitle.run(["login-token", "new-key", "--out", keyFile]).status == 1, "an existing key is never overwritten")

        let signed = try await CommandRunner.entitle.run(
            ["login-token", "sign", "--key", keyFile, "--key-id", "backend", "--user", "ana", "--app", "com.epilogue.app", "--ttl", "60"])
        #expect(signed.status == 0, "\(signed.standardError)")
        let token = signed.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        let verifier = try LogInTokenVerifier(policy: LogInTokenPolicy(publicKeys: ["backend": point], requiredForAppKeys: false), app: "com.epilogue.app")
        try verifier.verify(token, appUserID: "ana", now: Date())
        #expect(throws: ServiceError.self) { try verifier.verify(token, appUserID: "bea", now: Date()) }
        #expect(try await CommandRunner.entitle.run(
            ["login-token", "sign", "--key", keyFile, "--key-id", "backend", "--user", "ana", "--app", "com.epilogue.app", "--ttl", "7200"]).status == 64)
    }
}
