import Crypto
import Foundation
import SwiftASN1
import Synchronization
import X509

/// An in-code certificate authority shaped like Apple's App Store signing chain — a P-384 root, a
/// P-384 intermediate with OID 1.2.840.113635.100.6.2.1, a P-256 leaf with 1.2.840.113635.100.6.11.1 —
/// built at test time relative to a fixed reference instant so nothing ever expires. Each option
/// breaks the chain in one way for adversarial tests.
public struct TestPKI: Sendable {
    public struct Options: Sendable {
        public var rootName = "Entitle Test Root CA"
        public var intermediateHasAppleOID = true
        public var leafHasAppleOID = true
        public var intermediateIsCA = true
        /// Validity of the leaf, relative to the reference instant.
        public var leafValidity: ClosedRange<TimeInterval> = -365 * 86_400 ... 5 * 365 * 86_400
        /// An OCSP responder named in the leaf's Authority Information Access, for revocation tests.
        public var ocspURI: String?
        public init() {}
    }

    public static let intermediateOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    public static let leafOID: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    public let leafKey: P256.Signing.PrivateKey
    public let rootKey: P384.Signing.PrivateKey
    public let intermediateKey: P384.Signing.PrivateKey

    /// A fresh P-256 signing key, generated under the same lock.
    public static func makeSigningKey() -> P256.Signing.PrivateKey {
        keyGeneration.withLock { _ in P256.Signing.PrivateKey() }
    }

    /// Serialises key generation: swift-crypto's BoringSSL key generation was seen crashing in
    /// EC_KEY_check_fips when several test tasks generated keys at once.
    private static let keyGeneration = Mutex(())

    public init(options: Options = Options(), reference: Date = ReferenceTime.start) throws {
        let (rootKey, intermediateKey, leafKey) = Self.keyGeneration.withLock { _ in
            (P384.Signing.PrivateKey(), P384.Signing.PrivateKey(), P256.Signing.PrivateKey())
        }
        let rootName = try DistinguishedName {
            CommonName(options.rootName)
            OrganizationalUnitName("Entitle Certification Authority")
            OrganizationName("Entitle Tests")
            CountryName("US")
        }
        let intermediateName = try DistinguishedName {
            CommonName("Entitle Test Worldwide Developer Relations CA")
            OrganizationName("Entitle Tests")
            CountryName("US")
        }
        let leafName = try DistinguishedName {
            CommonName("Entitle Test App Store Signing")
            OrganizationName("Entitle Tests")
            CountryName("US")
        }
        let year: TimeInterval = 365 * 86_400
        root = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(rootKey.publicKey),
            notValidBefore: reference - 10 * year, notValidAfter: reference + 20 * year, issuer: rootName, subject: rootName,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: nil))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey))
        intermediate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(intermediateKey.publicKey),
            notValidBefore: reference - 5 * year, notValidAfter: reference + 10 * year, issuer: rootName, subject: intermediateName,
            signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                if options.intermediateIsCA {
                    Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                } else {
                    Critical(BasicConstraints.notCertificateAuthority)
                }
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                if options.intermediateHasAppleOID {
                    Certificate.Extension(oid: Self.intermediateOID, critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(rootKey))
        leaf = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(leafKey.publicKey),
            notValidBefore: reference + options.leafValidity.lowerBound, notValidAfter: reference + options.leafValidity.upperBound,
            issuer: intermediateName, subject: leafName, signatureAlgorithm: .ecdsaWithSHA384,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                if let uri = options.ocspURI {
                    AuthorityInformationAccess([.init(method: .ocspServer, location: .uniformResourceIdentifier(uri))])
                }
                if options.leafHasAppleOID {
                    Certificate.Extension(oid: Self.leafOID, critical: false, value: [0x05, 0x00])
                }
            },
            issuerPrivateKey: Certificate.PrivateKey(intermediateKey))
        self.rootKey = rootKey
        self.intermediateKey = intermediateKey
        self.leafKey = leafKey
    }

    /// The chain as x5c carries it: leaf, intermediate, root, base64 DER.
    public var x5c: [String] {
        [leaf, intermediate, root].map { Self.base64DER($0) }
    }

    public static func base64DER(_ certificate: Certificate) -> String {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return Data(serializer.serializedBytes).base64EncodedString()
    }

    public static func der(_ certificate: Certificate) -> [UInt8] {
        var serializer = DER.Serializer()
        try! serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// A compact JWS of `payload` signed by the leaf, with `header` as given (x5c defaults to this chain).
    public func sign(payload: Data, header: [String: any Sendable]? = nil, key: P256.Signing.PrivateKey? = nil) -> String {
        let header = header ?? ["alg": "ES256", "x5c": x5c]
        let headerSegment = Self.base64URL(try! JSONSerialization.data(withJSONObject: header, options: [.sortedKeys]))
        let payloadSegment = Self.base64URL(payload)
        let input = "\(headerSegment).\(payloadSegment)"
        let signature = try! (key ?? leafKey).signature(for: Data(input.utf8))
        return "\(input).\(Self.base64URL(signature.rawRepresentation))"
    }

    /// Signs an Encodable payload as Apple does: JSON with dates in milliseconds.
    public func sign<Payload: Encodable>(_ payload: Payload) -> String {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .millisecondsSince1970
        return sign(payload: try! encoder.encode(payload))
    }

    public static func base64URL(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
