import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation

/// The App Store Server API settings of `entitle serve`: the team's in-app purchase key (its `.p8`
/// file, key ID and issuer ID, from flags or `ENTITLE_APP_STORE_*`) and where the API is. All three
/// key settings or none; the key itself is never printed.
struct AppStoreAccessOptions {
    let key: InAppPurchaseKey
    let endpoints: AppStoreServerAPIClient.Endpoints

    /// `nil` when no key is configured.
    init?(keyFile: String?, keyID: String?, issuerID: String?, apiURL: String?, environment: [String: String]) throws {
        let file = keyFile ?? environment["ENTITLE_APP_STORE_KEY"]
        let keyID = keyID ?? environment["ENTITLE_APP_STORE_KEY_ID"]
        let issuerID = issuerID ?? environment["ENTITLE_APP_STORE_ISSUER_ID"]
        let url = apiURL ?? environment["ENTITLE_APP_STORE_API_URL"]
        guard file != nil || keyID != nil || issuerID != nil else {
            if url != nil { throw ValidationError("--app-store-api-url applies with --app-store-key") }
            return nil
        }
        guard let file, let keyID, let issuerID, !keyID.isEmpty, !issuerID.isEmpty else {
            throw ValidationError("--app-store-key, --app-store-key-id and --app-store-issuer-id go together")
        }
        let text: String
        do {
            text = try String(contentsOfFile: file, encoding: .utf8)
        } catch {
            throw ValidationError("--app-store-key: \(file) can't be read")
        }
        do {
            self.key = try InAppPurchaseKey(p8: text, keyID: keyID, issuerID: issuerID)
        } catch {
            throw ValidationError("--app-store-key: \(file) is not a P-256 private key in PEM (PKCS #8), as App Store Connect's .p8 files are")
        }
        if let url {
            guard let base = URL(string: url), base.scheme == "http" || base.scheme == "https", base.host != nil else {
                throw ValidationError("--app-store-api-url: \(url) is not an http(s) URL")
            }
            self.endpoints = .init(production: base, sandbox: base)
        } else {
            self.endpoints = .apple
        }
    }

    /// The client of one app, verifying answers with the app's verifiers.
    func client(bundleID: String, verifiers: [SignedDataVerifier], now: @escaping @Sendable () -> Date) -> AppStoreServerAPIClient {
        AppStoreServerAPIClient(token: key.token(bundleID: bundleID), endpoints: endpoints, verifiers: verifiers, now: now)
    }
}
