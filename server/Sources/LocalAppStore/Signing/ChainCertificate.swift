import Crypto
import Foundation
import SwiftASN1
import X509

/// Issues the certificates of a chain shaped like the App Store's signing chain.
public enum ChainCertificate {
    /// A certificate's place in the chain.
    public enum Role: Sendable {
        /// Self-signed, a CA.
        case root
        /// Signed by the root; a CA (path length 0) unless `isCA` is false.
        case intermediate(isCA: Bool = true)
        /// Signed by the intermediate; signs data.
        case leaf
    }

    /// A name in the chain's style: common name, organisation, country US.
    public static func name(_ commonName: String, organization: String) throws(LocalStoreError) -> DistinguishedName {
        do {
            return try DistinguishedName {
                CommonName(commonName)
                OrganizationName(organization)
                CountryName("US")
            }
        } catch {
            throw LocalStoreError(.signing, "\(commonName) is not a valid certificate name: \(error)")
        }
    }

    /// - Parameters:
    ///   - appleOID: Apple's marker extension for this role (omit to issue a chain Apple's policy refuses).
    ///   - ocspURI: an OCSP responder named in the Authority Information Access extension.
    public static func issue(
        _ role: Role, subject: DistinguishedName, publicKey: Certificate.PublicKey, issuer: DistinguishedName, issuerKey: Certificate.PrivateKey,
        validity: ClosedRange<Date>, appleOID: ASN1ObjectIdentifier?, ocspURI: String? = nil
    ) throws(LocalStoreError) -> Certificate {
        do {
            return try Certificate(
                version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: publicKey, notValidBefore: validity.lowerBound,
                notValidAfter: validity.upperBound, issuer: issuer, subject: subject, signatureAlgorithm: .ecdsaWithSHA384,
                extensions: try Certificate.Extensions {
                    switch role {
                    case .root:
                        Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    case .intermediate(let isCA):
                        Critical(isCA ? BasicConstraints.isCertificateAuthority(maxPathLength: 0) : BasicConstraints.notCertificateAuthority)
                        Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                    case .leaf:
                        Critical(BasicConstraints.notCertificateAuthority)
                        Critical(KeyUsage(digitalSignature: true))
                    }
                    if let ocspURI {
                        AuthorityInformationAccess([.init(method: .ocspServer, location: .uniformResourceIdentifier(ocspURI))])
                    }
                    if let appleOID {
                        Certificate.Extension(oid: appleOID, critical: false, value: [0x05, 0x00])
                    }
                },
                issuerPrivateKey: issuerKey)
        } catch {
            throw LocalStoreError(.signing, "a certificate could not be issued: \(error)")
        }
    }
}
