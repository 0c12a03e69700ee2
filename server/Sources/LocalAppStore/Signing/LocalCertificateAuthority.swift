import AppStoreVerification
import Crypto
import Foundation
import SwiftASN1
import X509

/// A certificate authority shaped like the App Store's: a P-384 root, a P-384 intermediate carrying
/// Apple's intermediate OID (1.2.840.113635.100.6.2.1), a P-256 leaf carrying Apple's leaf OID
/// (1.2.840.113635.100.6.11.1). Created on first use and kept in a folder as PEM files; only the
/// leaf's key is kept, since nothing else is ever signed.
///
/// A server trusts it only when told to (its root among the trusted roots); the verifier treats its
/// data exactly as it treats Apple's.
public struct LocalCertificateAuthority: Sendable {
    public static let intermediateOID = AppleOIDs.intermediateMarker
    public static let leafOID = AppleOIDs.leafMarker
    /// The files kept in the authority's folder.
    public static let files = (root: "root.pem", intermediate: "intermediate.pem", leaf: "leaf.pem", leafKey: "leaf-key.pem")

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    public let signer: AppStoreSigner

    /// Valid from two years before `now`, so that simulated history can be signed, to twenty after.
    public static func create(now: Date) throws(LocalStoreError) -> LocalCertificateAuthority {
        let rootKey = KeyGeneration.p384()
        let intermediateKey = KeyGeneration.p384()
        let leafKey = KeyGeneration.p256()
        let year: TimeInterval = 365 * 86_400
        let organization = "Entitle Local App Store"
        let rootName = try ChainCertificate.name("Entitle Local App Store Root CA", organization: organization)
        let intermediateName = try ChainCertificate.name("Entitle Local App Store Intermediate CA", organization: organization)
        let root = try ChainCertificate.issue(
            .root, subject: rootName, publicKey: Certificate.PublicKey(rootKey.publicKey), issuer: rootName,
            issuerKey: Certificate.PrivateKey(rootKey), validity: now - 2 * year...now + 20 * year, appleOID: nil)
        let intermediate = try ChainCertificate.issue(
            .intermediate(), subject: intermediateName, publicKey: Certificate.PublicKey(intermediateKey.publicKey), issuer: rootName,
            issuerKey: Certificate.PrivateKey(rootKey), validity: now - 2 * year...now + 20 * year, appleOID: intermediateOID)
        let leaf = try ChainCertificate.issue(
            .leaf, subject: try ChainCertificate.name("Entitle Local App Store Signing", organization: organization),
            publicKey: Certificate.PublicKey(leafKey.publicKey), issuer: intermediateName, issuerKey: Certificate.PrivateKey(intermediateKey),
            validity: now - 2 * year...now + 10 * year, appleOID: leafOID)
        return try LocalCertificateAuthority(root: root, intermediate: intermediate, leaf: leaf, leafKey: leafKey)
    }

    private init(root: Certificate, intermediate: Certificate, leaf: Certificate, leafKey: P256.Signing.PrivateKey) throws(LocalStoreError) {
        guard leaf.publicKey == Certificate.PublicKey(leafKey.publicKey) else {
            throw LocalStoreError(.corruptAuthority, "the leaf key does not match the leaf certificate")
        }
        guard leaf.issuer == intermediate.subject, intermediate.issuer == root.subject else {
            throw LocalStoreError(.corruptAuthority, "the certificates do not form a chain (leaf → intermediate → root)")
        }
        self.root = root
        self.intermediate = intermediate
        self.leaf = leaf
        self.leafKey = leafKey
        self.signer = try AppStoreSigner(key: leafKey, chain: [leaf, intermediate, root])
    }

    private let leafKey: P256.Signing.PrivateKey

    /// The authority kept in `folder`, created there (with the folder) when missing.
    public static func openOrCreate(folder: URL, now: Date) throws(LocalStoreError) -> LocalCertificateAuthority {
        if FileManager.default.fileExists(atPath: folder.appendingPathComponent(files.leafKey).path) {
            return try open(folder: folder)
        }
        let authority = try create(now: now)
        try authority.write(to: folder)
        return authority
    }

    /// The authority kept in `folder`.
    public static func open(folder: URL) throws(LocalStoreError) -> LocalCertificateAuthority {
        func text(_ name: String) throws(LocalStoreError) -> String {
            do {
                return try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            } catch {
                throw LocalStoreError(.storage, "cannot read \(folder.appendingPathComponent(name).path)")
            }
        }
        let (rootPEM, intermediatePEM, leafPEM, keyPEM) = (try text(files.root), try text(files.intermediate), try text(files.leaf), try text(files.leafKey))
        do {
            return try LocalCertificateAuthority(
                root: try Certificate(pemEncoded: rootPEM), intermediate: try Certificate(pemEncoded: intermediatePEM),
                leaf: try Certificate(pemEncoded: leafPEM), leafKey: try P256.Signing.PrivateKey(pemRepresentation: keyPEM))
        } catch let error as LocalStoreError {
            throw error
        } catch {
            throw LocalStoreError(.corruptAuthority, "the local certificate authority in \(folder.path) does not parse: \(error)")
        }
    }

    /// Writes the three certificates and the leaf key (readable by the owner only) into `folder`.
    public func write(to folder: URL) throws(LocalStoreError) {
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let files = Self.files
            for (name, certificate) in [(files.root, root), (files.intermediate, intermediate), (files.leaf, leaf)] {
                try certificate.serializeAsPEM().pemString.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
            }
            let keyURL = folder.appendingPathComponent(files.leafKey)
            guard FileManager.default.createFile(atPath: keyURL.path, contents: Data(leafKey.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
            else {
                throw LocalStoreError(.storage, "cannot write \(keyURL.path)")
            }
        } catch let error as LocalStoreError {
            throw error
        } catch {
            throw LocalStoreError(.storage, "cannot write the local certificate authority to \(folder.path): \(error)")
        }
    }
}
