import EntitleTestSupport
import Foundation
import Testing

@Suite("VerifyCommand")
struct VerifyCommandTests {
    static let vectors = "Tests/AppStoreVerificationTests/Vectors"
    static let shaped = ["--bundle-id", "com.example", "--environment", "sandbox", "--root-certificate", "\(vectors)/apple-shaped/root.der"]

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    @Test("a valid transaction prints its decoded payload and exits 0")
    func transaction() async throws {
        let result = try await CommandRunner.entitle.run(["verify", "--kind", "transaction"] + Self.shaped + ["\(Self.vectors)/apple-shaped/signedTransaction"])
        #expect(result.status == 0)
        #expect(result.standardError.isEmpty)
        let payload = try Self.json(result.standardOutput)
        #expect(payload["bundleId"] as? String == "com.example")
        #expect(payload["productId"] as? String == "com.example.premium.monthly")
    }

    @Test("a notification prints with its nested signed parts decoded")
    func notification() async throws {
        let result = try await CommandRunner.entitle.run(["verify", "--kind", "notification", "--app-apple-id", "1234"] + Self.shaped + ["\(Self.vectors)/apple-shaped/signedNotification"])
        #expect(result.status == 0)
        let output = try Self.json(result.standardOutput)
        #expect((output["notification"] as? [String: Any])?["notificationType"] as? String == "DID_RENEW")
        #expect((output["transactionInfo"] as? [String: Any])?["bundleId"] as? String == "com.example")
        #expect((output["renewalInfo"] as? [String: Any])?["originalTransactionId"] != nil)
    }

    @Test("standard input, a notification body and a PEM root are accepted")
    func stdinBodyAndPEM() async throws {
        let pem = "-----BEGIN CERTIFICATE-----\n"
            + (try Data(contentsOf: Fixtures.root.appendingPathComponent("\(Self.vectors)/apple-shaped/root.der"))).base64EncodedString(options: .lineLength64Characters)
            + "\n-----END CERTIFICATE-----\n"
        let pemFile = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-root-\(UUID().uuidString).pem")
        try pem.write(to: pemFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: pemFile) }
        let signed = try String(contentsOf: Fixtures.root.appendingPathComponent("\(Self.vectors)/apple-shaped/signedNotification"), encoding: .utf8)
        let body = try JSONSerialization.data(withJSONObject: ["signedPayload": signed.trimmingCharacters(in: .whitespacesAndNewlines)])
        let result = try await CommandRunner.entitle.run(
            ["verify", "--kind", "notification", "--bundle-id", "com.example", "--environment", "sandbox", "--app-apple-id", "1234",
             "--root-certificate", pemFile.path, "-"], input: body)
        #expect(result.status == 0)
    }

    @Test("a rejection prints error: CODE: message and exits 1", arguments: [
        (["--kind", "transaction", "--bundle-id", "com.example", "--environment", "sandbox", "apple-shaped/signedTransaction"], "verification.untrustedRoot"),
        (["--kind", "transaction", "--bundle-id", "com.other"] + Array(shaped.dropFirst(2)) + ["apple-shaped/signedTransaction"], "verification.bundleID"),
        (["--kind", "transaction", "--bundle-id", "com.example", "--environment", "production", "--root-certificate", "\(vectors)/apple-shaped/root.der", "apple-shaped/signedTransaction"], "verification.environment"),
        (["--kind", "transaction"] + shaped + ["apple/mock_signed_data/legacyTransaction"], "verification.malformed"),
        (["--kind", "transaction", "--bundle-id", "com.example.naturelab.backyardbirds.example", "--environment", "xcode", "apple/xcode/xcode-signed-transaction"], "verification.untrustedRoot"),
    ])
    func rejections(arguments: [String], code: String) async throws {
        var arguments = arguments
        arguments[arguments.count - 1] = "\(Self.vectors)/\(arguments[arguments.count - 1])"
        let result = try await CommandRunner.entitle.run(["verify"] + arguments)
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("error: \(code): "))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test("usage errors exit 64", arguments: [
        ["verify"],
        ["verify", "--kind", "receipt", "--bundle-id", "a", "--environment", "sandbox", "x"],
        ["verify", "--kind", "transaction", "--bundle-id", "a", "--environment", "moon", "x"],
        ["verify", "--kind", "transaction", "--environment", "sandbox", "x"],
        ["verify", "--kind", "transaction", "--bundle-id", "a", "--environment", "sandbox", "Tests/no-such-file"],
        ["verify", "--kind", "transaction", "--bundle-id", "a", "--environment", "sandbox", "--root-certificate", "README.md", "README.md"],
    ])
    func usage(arguments: [String]) async throws {
        let result = try await CommandRunner.entitle.run(arguments)
        #expect(result.status == 64)
        #expect(!result.standardError.isEmpty)
    }
}
