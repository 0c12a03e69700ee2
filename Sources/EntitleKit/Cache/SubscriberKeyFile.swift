import Crypto
import Foundation

/// The public key a log-in with a token returned for one app user (docs/identity.md), kept in the cache
/// folder so the app reaches that user with it after a relaunch. Keep the cache folder in the app's
/// data-protected container: the key reaches this one user's data, as the app itself does.
struct SubscriberKeyFile: Sendable {
    let folder: URL

    func load(appUserID: String) -> String? {
        guard let data = try? Data(contentsOf: file(appUserID)) else { return nil }
        let key = String(decoding: data, as: UTF8.self)
        return key.hasPrefix("pk_") && key.utf8.count <= 200 ? key : nil
    }

    func store(_ key: String, appUserID: String) throws(EntitleError) {
        do {
            try FileManager.default.createDirectory(at: file(appUserID).deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(key.utf8).write(to: file(appUserID), options: .atomic)
        } catch {
            throw EntitleError(.invalidRequest, "the cache folder can't be written: \(error)")
        }
    }

    func remove(appUserID: String) {
        try? FileManager.default.removeItem(at: file(appUserID))
    }

    /// One file per app user, named by a digest of the ID.
    private func file(_ appUserID: String) -> URL {
        let digest = SHA256.hash(data: Data(appUserID.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return folder.appendingPathComponent("keys", isDirectory: true).appendingPathComponent(digest)
    }
}
