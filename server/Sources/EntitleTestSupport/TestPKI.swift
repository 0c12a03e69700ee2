import Crypto
import Foundation
import LocalAppStore
import SwiftASN1
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

    public static let intermediateOID = LocalCertificateAuthority.intermediateOID
    public static let leafOID = LocalCertificateAuthority.leafOID

    public let root: Certificate
    public let intermediate: Certificate
    public let leaf: Certificate
    public let leafKey: P256.Signing.PrivateKey
    public let rootKey: P384.Signing.PrivateKey
    public let intermediateKey: P384.Signing.PrivateKey

    /// The root certificate as PEM, for tools that read certificates from files.
    public func rootPEM() throws -> String { try root.serializeAsPEM().pemString }

    /// One PKI of the default options, made once for the process: for the tests that need a PKI but
    /// not one of their own (a server harness's, a client's test server's). Its keys sign nothing that
    /// another test's verifier trusts unless that test trusts this root. A test that needs a second
    /// root (a forger's) makes one.
    public static func shared() throws -> TestPKI { try sharedPKI.get() }
    private static let sharedPKI = Result { try TestPKI() }

    /// A fresh P-256 signing key, generated under the process-wide key generation lock.
    public static func makeSigningKey() -> P256.Signing.PrivateKey { KeyGeneration.p256() }

    public init(options: Options = Options(), reference: Date = ReferenceTime.start) throws {
        let (rootKey, intermediateKey, leafKey) = (KeyGeneration.p384(), KeyGeneration.p384(), KeyGeneration.p256())
        let rootName = try ChainCertificate.name(options.rootName, organization: "Entitle Tests")
        let intermediateName = try ChainCertificate.name("Entitle Test Worldwide Developer Relations CA", organization: "Entitle Tests")
        let year: TimeInterval = 365 * 86_400
        root = try ChainCertificate.issue(
            .root, subject: rootName, publicKey: Certificate.PublicKey(rootKey.publicKey), issuer: rootName,
            issuerKey: Certificate.PrivateKey(rootKey), validity: reference - 10 * year...reference + 20 * year, appleOID: nil)
        intermediate = try ChainCertificate.issue(
            .intermediate(isCA: options.intermediateIsCA), subject: intermediateName, publicKey: Certificate.PublicKey(intermediateKey.publicKey),
            issuer: rootName, issuerKey: Certificate.PrivateKey(rootKey), validity: reference - 5 * year...reference + 10 * year,
            appleOID: options.intermediateHasAppleOID ? Self.intermediateOID : nil)
        leaf = try ChainCertificate.issue(
            .leaf, subject: try ChainCertificate.name("Entitle Test App Store Signing", organization: "Entitle Tests"),
            publicKey: Certificate.PublicKey(leafKey.publicKey), issuer: intermediateName, issuerKey: Certificate.PrivateKey(intermediateKey),
            validity: reference + options.leafValidity.lowerBound...reference + options.leafValidity.upperBound,
            appleOID: options.leafHasAppleOID ? Self.leafOID : nil, ocspURI: options.ocspURI)
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

    public static func base64URL(_ data: Data) -> String { AppStoreSigner.base64URL(data) }
}
