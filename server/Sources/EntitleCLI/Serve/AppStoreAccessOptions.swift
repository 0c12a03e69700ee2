import AppStoreServerAPI
import AppStoreVerification
import ArgumentParser
import Foundation

/// The App Store Server API settings of `entitle serve`: in-app purchase keys (a `.p8` file, its key ID
/// and the team's issuer ID, from flags or `ENTITLE_APP_STORE_*`) and where the API is. A value without
/// a prefix is every app's; `BUNDLE_ID=value` is one app's (apps of another team), falling back to the
/// unprefixed values for what it doesn't say. Each key needs all three; keys are never printed.
struct AppStoreAccessOptions {
    /// By bundle ID; `""` for every app not named.
    let keys: [String: InAppPurchaseKey]
    let endpoints: AppStoreServerAPIClient.Endpoints
    /// Whether calls are paced within Apple's rate limits (`apple`, the default) or not at all (`none`:
    /// a stand-in, or a proxy that limits on its own).
    let paced: Bool

    /// `nil` when no key is configured.
    init?(keyFiles: [String], keyIDs: [String], issuerIDs: [String], apiURL: String?, pace: String? = nil, environment: [String: String]) throws {
        func values(_ flags: [String], _ variable: String) -> [String] {
            flags.isEmpty ? (environment[variable]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? []) : flags
        }
        let files = try Self.scoped(values(keyFiles, "ENTITLE_APP_STORE_KEY"), "--app-store-key")
        let ids = try Self.scoped(values(keyIDs, "ENTITLE_APP_STORE_KEY_ID"), "--app-store-key-id")
        let issuers = try Self.scoped(values(issuerIDs, "ENTITLE_APP_STORE_ISSUER_ID"), "--app-store-issuer-id")
        let url = apiURL ?? environment["ENTITLE_APP_STORE_API_URL"]
        let pace = pace ?? environment["ENTITLE_APP_STORE_PACE"]
        let scopes = Set(files.keys).union(ids.keys).union(issuers.keys)
        guard !scopes.isEmpty else {
            if url != nil { throw ValidationError("--app-store-api-url applies with --app-store-key") }
            if pace != nil { throw ValidationError("--app-store-pace applies with --app-store-key") }
            return nil
        }
        switch pace {
        case nil, "apple": paced = true
        case "none": paced = false
        case let other?: throw ValidationError("--app-store-pace: \(other) is not apple or none")
        }
        var keys: [String: InAppPurchaseKey] = [:]
        for scope in scopes.sorted() {
            let name = scope.isEmpty ? "" : " for \(scope)"
            guard let file = files[scope] ?? files[""], let keyID = ids[scope] ?? ids[""], let issuerID = issuers[scope] ?? issuers[""] else {
                throw ValidationError("--app-store-key, --app-store-key-id and --app-store-issuer-id go together\(name)")
            }
            let text: String
            do {
                text = try String(contentsOfFile: file, encoding: .utf8)
            } catch {
                throw ValidationError("--app-store-key\(name): \(file) can't be read")
            }
            do {
                keys[scope] = try InAppPurchaseKey(p8: text, keyID: keyID, issuerID: issuerID)
            } catch {
                throw ValidationError("--app-store-key\(name): \(file) is not a P-256 private key in PEM (PKCS #8), as App Store Connect's .p8 files are")
            }
        }
        self.keys = keys
        if let url {
            guard let base = URL(string: url), base.scheme == "http" || base.scheme == "https", base.host != nil else {
                throw ValidationError("--app-store-api-url: \(url) is not an http(s) URL")
            }
            self.endpoints = .init(production: base, sandbox: base)
        } else {
            self.endpoints = .apple
        }
    }

    /// `value` or `BUNDLE_ID=value` (a bundle ID has a dot and no slash), each scope given once.
    static func scoped(_ values: [String], _ flag: String) throws -> [String: String] {
        var scoped: [String: String] = [:]
        for value in values where !value.isEmpty {
            var scope = ""
            var text = value
            if let equals = value.firstIndex(of: "=") {
                let prefix = value[..<equals]
                if prefix.contains("."), !prefix.contains("/"), prefix.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) {
                    scope = String(prefix)
                    text = String(value[value.index(after: equals)...])
                }
            }
            guard !text.isEmpty else { throw ValidationError("\(flag): \(value) has no value") }
            guard scoped.updateValue(text, forKey: scope) == nil else {
                throw ValidationError("\(flag) is given twice\(scope.isEmpty ? "" : " for \(scope)")")
            }
        }
        return scoped
    }

    /// The key of the app `bundleID`: its own, else every app's.
    func key(for bundleID: String) -> InAppPurchaseKey? { keys[bundleID] ?? keys[""] }

    /// The client of one app, verifying answers with the app's verifiers; `nil` when no key is the app's.
    func client(bundleID: String, verifiers: [SignedDataVerifier], now: @escaping @Sendable () -> Date) -> AppStoreServerAPIClient? {
        key(for: bundleID).map {
            AppStoreServerAPIClient(
                token: $0.token(bundleID: bundleID), endpoints: endpoints, verifiers: verifiers, pacer: paced ? RequestPacer() : .unpaced(), now: now)
        }
    }

    /// For the log: each key's ID and issuer (never the key).
    var description: String {
        keys.sorted { $0.key < $1.key }.map { "\($0.key.isEmpty ? "every app" : $0.key): \($0.value)" }.joined(separator: "; ")
    }
}
