import AppStoreModels
import Crypto
import EntitleWire
import Foundation

/// The customer info of one app user on disk: the server's exact answer and its Ed25519 signature,
/// verified with the server's public key when written and again when read, so a hand-edited file
/// grants nothing. A cached answer is trusted until the configured maximum age, and never once the
/// device clock reads earlier than the server time it carries (a clock set back).
struct CustomerInfoCache: Sendable {
    let folder: URL
    let publicKey: Curve25519.Signing.PublicKey
    let maximumAge: TimeInterval

    /// What is stored: base64 of the body and the signature header.
    private struct Entry: Codable {
        var body: String
        var signature: String
    }

    init(folder: URL, publicKey: String, maximumAge: TimeInterval) throws(EntitleError) {
        guard let raw = Base64URL.decode(publicKey), let key = try? Curve25519.Signing.PublicKey(rawRepresentation: raw) else {
            throw EntitleError(.invalidRequest, "the server public key is 32 bytes, base64url (GET /v1/signing-key)")
        }
        self.folder = folder
        self.publicKey = key
        self.maximumAge = maximumAge
    }

    /// Whether `body` carries a valid signature of the server's.
    func verifies(_ body: Data, signature: String?) -> Bool {
        guard let signature, signature.hasPrefix("ed25519="), let bytes = Base64URL.decode(String(signature.dropFirst("ed25519=".count))) else {
            return false
        }
        return publicKey.isValidSignature(bytes, for: body)
    }

    /// Keeps a verified answer for `appUserID`, replacing the file atomically.
    func store(_ body: Data, signature: String, appUserID: String) throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let entry = Entry(body: body.base64EncodedString(), signature: signature)
        try JSONEncoder().encode(entry).write(to: file(appUserID), options: .atomic)
    }

    /// The cached answer for `appUserID` if it verifies, is that user's, and may still be trusted at `now`.
    func load(appUserID: String, now: Date) -> SubscriberResponse? {
        guard let data = try? Data(contentsOf: file(appUserID)), let entry = try? JSONDecoder().decode(Entry.self, from: data),
            let body = Data(base64Encoded: entry.body), verifies(body, signature: entry.signature),
            let response = try? WireJSON.decoder.decode(SubscriberResponse.self, from: body), response.appUserID == appUserID
        else { return nil }
        guard now >= response.serverTime, now.timeIntervalSince(response.serverTime) <= maximumAge else { return nil }
        return response
    }

    func remove(appUserID: String) {
        try? FileManager.default.removeItem(at: file(appUserID))
    }

    /// One file per app user, named by a digest of the ID (any characters are safe).
    func file(_ appUserID: String) -> URL {
        let digest = SHA256.hash(data: Data(appUserID.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return folder.appendingPathComponent("customer-info-\(digest).json")
    }
}
