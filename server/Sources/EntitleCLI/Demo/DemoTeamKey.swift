import AppStoreServerAPI
import Crypto
import Foundation

/// The local App Store's in-app purchase key, kept beside its certificate authority
/// (`DATA/local-store/SubscriptionKey_LOCALKEY01.p8`, readable by the owner only, and the issuer ID):
/// the demo's server signs its App Store Server API tokens and promotional offers with it, and a
/// developer can point `entitle serve --app-store-key … --app-store-api-url …` at the demo to rehearse.
enum DemoTeamKey {
    static let keyID = "LOCALKEY01"

    static func file(in folder: URL) -> URL { folder.appendingPathComponent("SubscriptionKey_\(keyID).p8") }

    static func openOrCreate(folder: URL) throws -> InAppPurchaseKey {
        let keyFile = file(in: folder)
        let issuerFile = folder.appendingPathComponent("issuer-id")
        if let pem = try? String(contentsOf: keyFile, encoding: .utf8),
            let issuer = try? String(contentsOf: issuerFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines), !issuer.isEmpty
        {
            do {
                return try InAppPurchaseKey(p8: pem, keyID: keyID, issuerID: issuer)
            } catch {
                throw CommandFailure("\(keyFile.path) is not a P-256 private key in PEM; remove it to make a new one")
            }
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let key = P256.Signing.PrivateKey()
        let issuer = UUID().uuidString.lowercased()
        guard FileManager.default.createFile(atPath: keyFile.path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600]),
            FileManager.default.createFile(atPath: issuerFile.path, contents: Data(issuer.utf8))
        else { throw CommandFailure("cannot write the local App Store's key in \(folder.path)") }
        return InAppPurchaseKey(privateKey: key, keyID: keyID, issuerID: issuer)
    }
}
