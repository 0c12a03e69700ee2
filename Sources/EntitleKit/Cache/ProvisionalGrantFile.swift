import Crypto
import EntitleCore
import Foundation

/// The provisional grants of one app user (``ProvisionalGrant``), kept in the cache folder so a relaunch
/// offline still has them; each ends with its hours, or when the server confirms or refuses its purchase.
struct ProvisionalGrantFile: Sendable {
    let folder: URL

    func load(appUserID: String) -> [ProvisionalGrant] {
        guard let data = try? Data(contentsOf: file(appUserID)) else { return [] }
        return (try? JSONDecoder().decode([ProvisionalGrant].self, from: data)) ?? []
    }

    func store(_ grants: [ProvisionalGrant], appUserID: String) {
        if grants.isEmpty {
            try? FileManager.default.removeItem(at: file(appUserID))
            return
        }
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try? JSONEncoder().encode(grants).write(to: file(appUserID), options: .atomic)
    }

    func file(_ appUserID: String) -> URL {
        let digest = SHA256.hash(data: Data(appUserID.utf8)).prefix(16).map { String(format: "%02x", $0) }.joined()
        return folder.appendingPathComponent("provisional-\(digest).json")
    }
}
