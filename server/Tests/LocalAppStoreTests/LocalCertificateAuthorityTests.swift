import AppStoreModels
import AppStoreVerification
import Crypto
import EntitleTestSupport
import Foundation
import LocalAppStore
import SwiftASN1
import Testing
import X509

@Suite("LocalCertificateAuthority")
struct LocalCertificateAuthorityTests {
    static func folder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("entitle-ca-\(UUID().uuidString)")
    }

    @Test("created on first use and kept: opening the folder again gives the same chain, and the key is owner-only")
    func kept() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try LocalCertificateAuthority.openOrCreate(folder: folder, now: ReferenceTime.start)
        let second = try LocalCertificateAuthority.openOrCreate(folder: folder, now: ReferenceTime.day(400))
        #expect(first.root == second.root)
        #expect(first.leaf == second.leaf)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("leaf-key.pem").path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }

    @Test("its chain has Apple's shape: P-384 root and intermediate, P-256 leaf, Apple's OIDs on intermediate and leaf")
    func shape() throws {
        let authority = try LocalCertificateAuthority.create(now: ReferenceTime.start)
        #expect(P384.Signing.PublicKey(authority.root.publicKey) != nil)
        #expect(P384.Signing.PublicKey(authority.intermediate.publicKey) != nil)
        #expect(P256.Signing.PublicKey(authority.leaf.publicKey) != nil)
        #expect(authority.intermediate.extensions[oid: [1, 2, 840, 113635, 100, 6, 2, 1]] != nil)
        #expect(authority.leaf.extensions[oid: [1, 2, 840, 113635, 100, 6, 11, 1]] != nil)
        #expect(authority.leaf.notValidBefore <= ReferenceTime.day(-365))
    }

    @Test("a verifier trusting its root accepts what it signs; one trusting only Apple's root refuses it")
    func trustIsExplicit() async throws {
        let authority = try LocalCertificateAuthority.create(now: ReferenceTime.start)
        let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        var store = StoreSimulator(catalog: catalog, bundleID: "com.screentimerewards", signer: authority.signer)
        let purchase = try store.purchase("com.screentimerewards.family.monthly", at: ReferenceTime.day(1))
        let trusting = SignedDataVerifier(
            configuration: VerifierConfiguration(bundleID: "com.screentimerewards", environment: .sandbox, rootCertificates: [authority.root]),
            now: { ReferenceTime.day(2) })
        #expect(try await trusting.verifyTransaction(purchase.signedTransaction).originalTransactionId == purchase.originalTransactionID)
        let apple = SignedDataVerifier(
            configuration: VerifierConfiguration(bundleID: "com.screentimerewards", environment: .sandbox), now: { ReferenceTime.day(2) })
        await #expect(throws: VerificationError.self) { try await apple.verifyTransaction(purchase.signedTransaction) }
        do {
            _ = try await apple.verifyTransaction(purchase.signedTransaction)
        } catch {
            #expect(error.code == .untrustedRoot)
        }
    }

    @Test("damaged files are refused with localStore.corruptAuthority, missing ones with localStore.storage")
    func damaged() throws {
        let folder = Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try LocalCertificateAuthority.openOrCreate(folder: folder, now: ReferenceTime.start)
        try "-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".write(
            to: folder.appendingPathComponent("intermediate.pem"), atomically: true, encoding: .utf8)
        #expect(throws: LocalStoreError(.corruptAuthority, "")) { try LocalCertificateAuthority.open(folder: folder) }
        try FileManager.default.removeItem(at: folder.appendingPathComponent("root.pem"))
        #expect(throws: LocalStoreError(.storage, "")) { try LocalCertificateAuthority.open(folder: folder) }
    }
}
