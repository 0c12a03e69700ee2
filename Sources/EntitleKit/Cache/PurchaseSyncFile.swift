import Crypto
import Foundation

/// When the store's purchases of one app user were last synced to the server (``Entitle/syncPurchases(force:)``),
/// kept in the cache folder so the one-time sync runs once per install and user, whatever the launches.
struct PurchaseSyncFile: Sendable {
    let folder: URL

    func syncedAt(appUserID: String) -> Date? {
        guard let data = try? Data(contentsOf: file(appUserID)) else { return nil }
        return try? JSONDecoder().decode(Date.self, from: data)
    }

    func record(_ at: Date, appUserID: String) {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? JSONEncoder().encode(at).write(to: file(appUserID), options: .atomic)
    }

    /// Forgets the user's sync (their deletion).
    func forget(appUserID: String) {
        try? FileManager.default.removeItem(at: file(appUserID))
    }

    func file(_ appUserID: String) -> URL {
        let digest = SHA256.hash(data: Data(appUserID.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return folder.appendingPathComponent("synced-\(digest).json")
    }
}
