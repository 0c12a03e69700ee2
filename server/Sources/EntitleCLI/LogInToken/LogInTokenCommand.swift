import ArgumentParser
import Crypto
import EntitleCore
import EntitleServer
import Foundation

/// `entitle login-token new-key|sign`: the app backend's log-in token keys and tokens (docs/identity.md).
struct LogInTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login-token", abstract: "Make a backend's log-in token key, or sign a log-in token with it.",
        subcommands: [NewKey.self, Sign.self])

    struct NewKey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "new-key",
            abstract: "Write a new P-256 private key (PEM, mode 0600) for the backend; print its public key for logInTokens.publicKeys.")

        @Option(help: "Where the private key goes; refused when the file exists.") var out: String

        func run() async throws {
            guard !FileManager.default.fileExists(atPath: out) else { throw CommandFailure("\(out) exists; choose another file") }
            let pair = LogInToken.generateKey()
            guard FileManager.default.createFile(atPath: out, contents: Data((pair.privateKey + "\n").utf8), attributes: [.posixPermissions: 0o600])
            else { throw CommandFailure("\(out) can't be written") }
            print("wrote the private key to \(out); the public key, for the entitlements file's logInTokens.publicKeys:")
            print(pair.publicKey)
        }
    }

    struct Sign: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a log-in token for one user of one app, as the backend signs it after its own sign-in.")

        @Option(help: "The backend's private key (PEM), as new-key wrote it.") var key: String
        @Option(help: "The key's ID in logInTokens.publicKeys.") var keyID: String
        @Option(help: "The app user ID logging in.") var user: String
        @Option(help: "The app's bundle ID.") var app: String
        @Option(help: "Seconds the token lives (1 to 3600).") var ttl: Int = 300

        func validate() throws {
            guard (1...Int(LogInToken.maximumLifetime)).contains(ttl) else { throw ValidationError("--ttl is 1 to \(Int(LogInToken.maximumLifetime)) seconds") }
            guard !user.isEmpty, user.utf8.count <= 200 else { throw ValidationError("--user is 1 to 200 bytes") }
            guard !app.isEmpty, !keyID.isEmpty else { throw ValidationError("--app and --key-id are not empty") }
        }

        func run() async throws {
            guard let text = try? String(contentsOfFile: key, encoding: .utf8) else { throw CommandFailure("\(key) can't be read") }
            guard let privateKey = try? P256.Signing.PrivateKey(pemRepresentation: text) else {
                throw CommandFailure("\(key) is not a P-256 private key in PEM")
            }
            print(try LogInToken.sign(appUserID: AppUserID(user), app: BundleID(app), issuedAt: Date(), lifetime: TimeInterval(ttl), keyID: keyID, key: privateKey))
        }
    }
}
