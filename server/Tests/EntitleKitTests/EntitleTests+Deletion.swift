import AppStoreModels
import Crypto
import EntitleAPI
import EntitleCore
@testable import EntitleKit
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension EntitleTests {
    @Test("deleteCustomer(): the server erases the user, this instance forgets them and becomes a new anonymous user's; offline, nothing is forgotten")
    func deleteCustomer() async throws {
        let backend = P256.Signing.PrivateKey()
        try await Self.run(catalog: Self.askingForTokens(backend)) { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            var configuration = server.configuration(folder: folder)
            configuration.apiKey = try await Self.appKey(server)
            let app = try Entitle(configuration: configuration)
            let token = try LogInToken.sign(appUserID: "parent-7", app: "com.screentimerewards", issuedAt: server.clock.now, keyID: "backend", key: backend)
            _ = try await app.logIn(token: token, as: "parent-7")
            try await server.purchase("com.screentimerewards.family.monthly", for: "parent-7", original: "7700", expires: server.clock.now + 30 * 86_400)
            _ = try await app.setAttributes(["email": "parent-7@example.com"])

            // An app key alone may not delete a user of this app (it asks for log-in tokens).
            let stranger = SubscriberAPIClient(baseURL: server.url, key: configuration.apiKey)
            let refused = await #expect(throws: APIClientError.self) { _ = try await stranger.deleteSubscriber("parent-7") }
            #expect(refused?.serverCode == "auth.logInTokenRequired")
            // Offline: an error, and the user is still this instance's.
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-7")
            await #expect(throws: EntitleError.self) { _ = try await offline.deleteCustomer() }
            #expect(await offline.appUserID == "parent-7")

            #expect(try await app.deleteCustomer())
            let after = await app.appUserID
            #expect(after.hasPrefix("$anon:") && after != "parent-7")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("current-user").path))
            let admin = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            #expect(try await admin.deleteSubscriber("parent-7").deleted == false, "nothing is left of them")
            let answer = try await admin.subscriber("parent-7")
            #expect(answer.subscriptions.isEmpty && answer.attributes["email"] == nil)
        }
    }
}
