import AppStoreModels
import AppStoreVerification
import ArgumentParser
import Foundation
import SwiftASN1
import X509

/// `entitle verify`: verifies one piece of App Store signed data and prints it decoded.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify App Store signed data and print it decoded.",
        discussion: """
            Reads a JWS (or a notification body {"signedPayload": "…"}) from FILE, or standard input
            with -. Prints the decoded payload as JSON and exits 0; a notification is printed with its
            nested signed transaction, renewal info and app transaction decoded. On rejection prints
            "error: CODE: message" to standard error and exits 1. Usage errors exit 64.
            """)

    enum Kind: String, ExpressibleByArgument, CaseIterable {
        case transaction
        case renewalInfo = "renewal-info"
        case notification
        case appTransaction = "app-transaction"
    }

    enum EnvironmentOption: String, ExpressibleByArgument, CaseIterable {
        case production, sandbox, xcode
        case localTesting = "local-testing"

        var environment: Environment {
            switch self {
            case .production: .production
            case .sandbox: .sandbox
            case .xcode: .xcode
            case .localTesting: .localTesting
            }
        }
    }

    @Option(help: "What the data is: \(Kind.allCases.map(\.rawValue).joined(separator: ", ")).")
    var kind: Kind

    @Option(name: .customLong("bundle-id"), help: "The app's bundle identifier.")
    var bundleID: String

    @Option(help: "The environment the data must come from: \(EnvironmentOption.allCases.map(\.rawValue).joined(separator: ", ")).")
    var environment: EnvironmentOption

    @Option(name: .customLong("app-apple-id"), help: "The app's Apple ID; required for production notifications and app transactions.")
    var appAppleID: Int64?

    @Option(
        name: .customLong("root-certificate"),
        help: "A trusted root (DER or PEM), replacing Apple Root CA - G3; repeatable. For xcode, the StoreKit Testing certificate exported from Xcode.",
        completion: .file())
    var rootCertificates: [String] = []

    @Argument(help: "The file holding the signed data, or - for standard input.", completion: .file())
    var input: String

    func run() async throws {
        let certificates = try rootCertificates.map(Self.loadCertificate)
        let signed = try Self.signedData(from: input)
        let verifier = SignedDataVerifier(
            configuration: VerifierConfiguration(
                bundleID: bundleID, environment: environment.environment, appAppleID: appAppleID,
                rootCertificates: environment == .xcode || certificates.isEmpty ? [AppleRootCertificates.appleRootCAG3] : certificates,
                xcodeCertificates: environment == .xcode ? certificates : []),
            now: { Date() })
        let encoder = AppStoreJSON.encoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let output: Data
            switch kind {
            case .transaction: output = try encoder.encode(try await verifier.verifyTransaction(signed))
            case .renewalInfo: output = try encoder.encode(try await verifier.verifyRenewalInfo(signed))
            case .notification: output = try encoder.encode(try await verifier.verifyNotification(signed))
            case .appTransaction: output = try encoder.encode(try await verifier.verifyAppTransaction(signed))
            }
            print(String(decoding: output, as: UTF8.self))
        } catch let error as VerificationError {
            var standardError = FileHandle.standardError
            print("error: \(error.code): \(error.message)", to: &standardError)
            throw ExitCode.failure
        }
    }

    /// The JWS in a file or standard input: the file's text, or the `signedPayload` of a notification body.
    static func signedData(from path: String) throws -> String {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw ValidationError("cannot read \(path)")
            }
            data = contents
        }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        if text.hasPrefix("{"),
            let body = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
            let signedPayload = body["signedPayload"] as? String
        {
            return signedPayload
        }
        return text
    }

    /// A certificate from a DER or PEM file.
    static func loadCertificate(_ path: String) throws -> Certificate {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read the certificate \(path)")
        }
        if let text = String(data: data, encoding: .utf8), text.contains("-----BEGIN CERTIFICATE-----") {
            do {
                return try Certificate(pemEncoded: text)
            } catch {
                throw ValidationError("\(path) is not a PEM certificate: \(error)")
            }
        }
        do {
            return try Certificate(derEncoded: Array(data))
        } catch {
            throw ValidationError("\(path) is not a DER or PEM certificate")
        }
    }
}
